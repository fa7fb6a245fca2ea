/** Messages between the benchmark and bench/simulator-process.ts (Node IPC channel). */
import type { ApiKeyCredential, FaultSpec, RouteId, SimulatorOptions } from '../test/simulator';

/** A list of one company whose ids the benchmark compares a client's output with. */
export type ListName = 'invoices' | 'settlements' | 'accounts' | 'payables';

export type SimCommand =
	| { id: number; cmd: 'requests'; detail?: boolean }
	| { id: number; cmd: 'clearLog' }
	| { id: number; cmd: 'stats' }
	| { id: number; cmd: 'resetStats' }
	| { id: number; cmd: 'injectFault'; fault: FaultSpec }
	| { id: number; cmd: 'clearFaults' }
	| { id: number; cmd: 'configure'; options: Partial<SimulatorOptions> }
	| { id: number; cmd: 'expireTokens' }
	| { id: number; cmd: 'ids'; company: string; list: ListName }
	| { id: number; cmd: 'advanceClock'; ms: number }
	| { id: number; cmd: 'insertTiedInvoices'; company: string; count: number };

export type SimReply =
	| { id: number; ok: true; result: unknown }
	| { id: number; ok: false; error: string };

/** One entry of the simulator's request log, as much as the benchmark needs. */
export interface WireRequest {
	/** Arrival time (ms, simulator clock = wall clock here). */
	at: number;
	route: RouteId;
	status: number;
	companyId?: string;
	/** The fault injected into this request, if any. */
	fault?: string;
	/** Query and JSON body as the simulator logged them (only with `requests({ detail: true })`). */
	query?: Record<string, string>;
	body?: unknown;
	/** The request's Connection header (only with `detail`): "close" when the client opened a connection for it alone. */
	connection?: string;
}

export interface SimReady {
	url: string;
	orgKey: ApiKeyCredential;
}

export const TOKEN_ROUTES: ReadonlySet<string> = new Set([
	'token',
	'oauthAuthorize',
	'oauthTokenCreate',
	'oauthTokenRefresh',
]);
