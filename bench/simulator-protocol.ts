/** Messages between the benchmark and bench/simulator-process.ts (Node IPC channel). */
import type { ApiKeyCredential, RouteId } from '../test/simulator';

export type SimCommand =
	| { id: number; cmd: 'requests' }
	| { id: number; cmd: 'clearLog' }
	| { id: number; cmd: 'stats' }
	| { id: number; cmd: 'resetStats' };

export type SimReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** One entry of the simulator's request log, as much as the benchmark needs. */
export interface WireRequest {
	/** Arrival time (ms, simulator clock = wall clock here). */
	at: number;
	route: RouteId;
	status: number;
	companyId?: string;
}

export interface SimReady {
	url: string;
	orgKey: ApiKeyCredential;
}

export const TOKEN_ROUTES: ReadonlySet<string> = new Set(['token', 'oauthToken', 'oauthAuthorize']);
