/** Tunables of the transport and the lists, shared by the node, the trigger and the API-key credential. */
export const transportSettings = Object.freeze({
	/** Requests in flight per credential (the API allows 5 per consumer). */
	maxInFlight: 5,
	/** Longest total time one call may spend waiting for rate limits and retries. */
	maxWaitMs: 120_000,
	/** Longest rate-limit wait remembered for the calls that follow; a server asking for longer is not believed. */
	longestRememberedWaitMs: 600_000,
	/** Retries of a 5xx or connection failure (idempotent calls only). */
	maxRetries: 4,
	/** First backoff step; doubles each retry up to maxBackoffMs, with jitter. */
	backoffBaseMs: 500,
	maxBackoffMs: 8_000,
	/** Wait after a 429 that gives neither Retry-After nor x-ratelimit-reset. */
	defaultRateLimitWaitMs: 1_000,
	/** Shortest wait after a 429, whatever the server asks (a Retry-After of "0.001" or "0"). */
	minRateLimitWaitMs: 1_000,
	/** Longest time one attempt may take, to the last byte of the response (also n8n's `timeout`). */
	timeoutMs: 60_000,
	/** Longest time the API-key token request may take (POST /v1/auth/token). */
	tokenTimeoutMs: 30_000,
	/** Lists: empty pages in a row, each saying more follows, before the list is taken for endless. */
	maxEmptyPages: 10,
	/** Shortest pause between two status polls (payables snapshots, accounting exports). */
	statusPollMinMs: 200,
	/** Pause between two status polls of a payables snapshot: at most one a minute (docs/api.md#snapshots). */
	snapshotPollIntervalMs: 60_000,
});

export type TransportSettings = { -readonly [K in keyof typeof transportSettings]: number };
