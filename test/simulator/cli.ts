/**
 * `npm run simulator`: serves the Spendesk API simulator on 127.0.0.1 and prints its base
 * URL and ready-to-use credentials. Flags: --port N, --companies N, --invoices N, --seed N,
 * --rate-limit N (requests per minute per company), --latency MS, --max-in-flight N,
 * --token-lifetime SECONDS, --webhook-time-scale X (multiplies the waits of the webhook retry
 * schedule: 0.001 makes 10 minutes 0.6 s).
 */
import { SpendeskSimulator } from './server';
import type { SimulatorOptions } from './types';

function flags(argv: string[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (let i = 0; i < argv.length; i++) {
		const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
		if (!m) throw new Error(`Unknown argument ${argv[i]}`);
		out[m[1]] = m[2] ?? argv[++i] ?? '';
	}
	return out;
}

function int(value: string | undefined, name: string): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
	return n;
}

function positive(value: string | undefined, name: string): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
	return n;
}

async function main(): Promise<void> {
	const f = flags(process.argv.slice(2));
	const options: SimulatorOptions = {
		port: int(f.port ?? process.env.SIMULATOR_PORT, 'port') ?? 8787,
		seed: {
			seed: int(f.seed, 'seed'),
			companies: int(f.companies, 'companies') ?? 6,
			sizes: {
				invoices: int(f.invoices, 'invoices') ?? 250,
				payables: 120,
				settlements: 80,
				accounts: 60,
			},
		},
		rateLimit: int(f['rate-limit'], 'rate-limit'),
		latencyMs: int(f.latency, 'latency'),
		maxInFlight: int(f['max-in-flight'], 'max-in-flight'),
		tokenLifetimeSeconds: int(f['token-lifetime'], 'token-lifetime'),
		webhookTimeScale: positive(f['webhook-time-scale'], 'webhook-time-scale'),
	};
	for (const k of Object.keys(options) as (keyof SimulatorOptions)[])
		if (options[k] === undefined) delete options[k];
	const sim = new SpendeskSimulator(options);
	const url = await sim.start();
	const { orgKey, companyKey, oauthClient } = sim.credentials;
	const active = sim.companies().filter((c) => c.active);
	const lines = [
		`Spendesk API simulator listening on ${url}`,
		`File host (pre-signed attachment and upload URLs) on ${sim.fileBaseUrl}`,
		'',
		`Organisation ${sim.organisationId}: ${active.length} active companies (${active.map((c) => c.id).join(', ')}), ` +
			`${sim.companies().length - active.length} deactivated`,
		'',
		'Credentials (use "Custom" environment with this base URL):',
		`  Organisation API key   client id ${orgKey.clientId}   secret ${orgKey.clientSecret}`,
		`  Company API key        client id ${companyKey.clientId}   secret ${companyKey.clientSecret}   (company ${companyKey.companyId})`,
		`  OAuth2 client          client id ${oauthClient.clientId}   secret ${oauthClient.clientSecret}`,
		`                         authorize ${url}/oauth2/authorize   token ${url}/oauth2/token`,
		'',
		'Try:',
		`  curl -s -X POST ${url}/v1/auth/token -u ${orgKey.clientId}:${orgKey.clientSecret} \\`,
		`       -H 'content-type: application/json' -d '{"grant_type":"client_credentials"}'`,
		`  curl -s ${url}/v2/companies -H "authorization: Bearer <access_token>"`,
		`  curl -s -X POST ${url}/_simulator/webhooks/events -H 'content-type: application/json' -d '{"companyId":"${active[0]?.id ?? 'cmp_001'}","eventType":"payables:created"}'   # a webhook event, POSTed to the instances of POST /v1/webhooks`,
		'',
		'Ctrl-C stops it.',
	];
	process.stdout.write(lines.join('\n') + '\n');
	const shutdown = () => void sim.stop().then(() => process.exit(0));
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
	process.stderr.write(`simulator: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
