/**
 * The credential's Test inside real n8n against a token endpoint that trickles its answer, one
 * byte a second (docs/errors.md row 8). n8n gives a credential test only its older `request`
 * helper: it takes no abort signal, and its `timeout` only limits silence, so a server that
 * never stops sending a little would hold the Test until its last byte. The package reads the
 * answer itself: the Test ends at the token time limit (30 s) with its message, and the
 * connection is closed then, not left trickling.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHome, ensureN8n, parseTargets } from './runtime';
import { setupOwner, startN8n } from './server';
import type { N8nServer, RestSession } from './server';

jest.setTimeout(5 * 60_000);

/** A token answer 90 bytes long: a minute and a half at one byte a second. */
const TOKEN_ANSWER = JSON.stringify({
	access_token: 'tok-trickle-e2e-0123456789',
	token_type: 'Bearer',
	expires_in: 3600,
	pad: 'x',
});

describe.each(parseTargets())('the credential Test in real n8n (%s)', (target) => {
	/** When the client cut the trickle (ms after the request came), or undefined. */
	let cutAfterMs: number | undefined;
	const timers = new Set<NodeJS.Timeout>();
	const api = http.createServer((req, res) => {
		req.resume();
		const came = Date.now();
		res.writeHead(200, { 'content-type': 'application/json' });
		let sent = 0;
		const timer = setInterval(() => {
			res.write(TOKEN_ANSWER[sent++]);
			if (sent === TOKEN_ANSWER.length) {
				clearInterval(timer);
				res.end();
			}
		}, 1000);
		timers.add(timer);
		res.on('close', () => {
			clearInterval(timer);
			if (sent < TOKEN_ANSWER.length) cutAfterMs = Date.now() - came;
		});
	});
	let baseUrl = '';
	let server: N8nServer | undefined;
	let session: RestSession;

	beforeAll(async () => {
		expect(TOKEN_ANSWER.length).toBeGreaterThanOrEqual(90);
		await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
		server = await startN8n(await createHome(await ensureN8n(target)));
		session = await setupOwner(server.baseUrl);
	});
	afterAll(async () => {
		for (const timer of timers) clearInterval(timer);
		api.closeAllConnections();
		await new Promise((resolve) => api.close(resolve));
		await server?.stop();
	});

	it('a token answer trickling a byte a second: the Test ends at 30 s saying so, the connection closed', async () => {
		const created = await session.post<{ id: string }>('/credentials', {
			name: 'Spendesk key, slow token endpoint',
			type: 'spendeskApi',
			data: {
				environment: 'custom',
				baseUrl,
				clientId: 'client-trickle',
				clientSecret: 'secret-trickle-e2e',
			},
		});
		const saved = await session.get<{ id: string }>(`/credentials/${created.id}?includeData=true`);
		const started = Date.now();
		const tested = await session.post<{ status: string; message: string }>('/credentials/test', {
			credentials: saved,
		});
		const seconds = (Date.now() - started) / 1000;
		expect(tested).toEqual({
			status: 'Error',
			message: `Spendesk did not answer the test's token request at ${baseUrl} within 30 s (it sent too little, or nothing, in that time): check 'Environment' (or 'Base URL') in the credential and the network of your n8n instance, then test again.`,
		});
		expect(seconds).toBeGreaterThanOrEqual(29);
		expect(seconds).toBeLessThan(40);
		// Closed by n8n's side at the limit, long before the 90 bytes were sent.
		for (let waited = 0; cutAfterMs === undefined && waited < 20; waited++)
			await new Promise((resolve) => setTimeout(resolve, 100));
		expect(cutAfterMs).toBeGreaterThanOrEqual(29_000);
		expect(cutAfterMs).toBeLessThan(40_000);
	});
});
