/**
 * A redirect from "Spendesk" inside real n8n (docs/api.md#authentication, docs/errors.md):
 * n8n's request helper follows redirects by default and would carry the bearer token, the
 * Basic client secret and X-Company-Id to the new host. The package turns following off, so
 * the run fails naming where the redirect pointed, and the other host receives nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHome, ensureN8n, parseTargets } from './runtime';
import {
	apiKeyCredential,
	batchWorkflow,
	execute,
	importCredentials,
	importWorkflows,
	items,
	spendeskNode,
} from './workflows';

jest.setTimeout(5 * 60_000);

const KEY = { id: 'redirectKey', name: 'Spendesk key behind a redirect' };
const SECRET = 'client-secret-7d41';
const TOKEN = 'api-token-2b9e';

describe.each(parseTargets())('a redirect from the API in real n8n (%s)', (target) => {
	const received: Array<{ url: string; authorization?: string; company?: string }> = [];
	let targetHost = '';
	/** Where the redirects point: records every credential header that reaches it. */
	const other = http.createServer((req, res) => {
		received.push({
			url: req.url ?? '',
			authorization: req.headers.authorization,
			company: req.headers['x-company-id'] as string | undefined,
		});
		req.resume();
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ access_token: 'stolen', expires_in: 3600, data: {} }));
	});
	/** The "API": a token for the token request when `tokenOk`, a 307 to the other host otherwise. */
	let tokenOk = false;
	const api = http.createServer((req, res) => {
		req.resume();
		if (tokenOk && req.url === '/v1/auth/token') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }));
			return;
		}
		res.writeHead(307, { location: `http://${targetHost}/collect?sig=query-secret-5f` });
		res.end();
	});
	const listen = async (server: http.Server) => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return `127.0.0.1:${(server.address() as AddressInfo).port}`;
	};

	let run: (id: string) => Promise<Record<string, unknown>>;

	beforeAll(async () => {
		targetHost = await listen(other);
		const apiUrl = `http://${await listen(api)}`;
		const home = await createHome(await ensureN8n(target));
		await importCredentials(home, [
			apiKeyCredential(KEY, apiUrl, {
				clientId: 'client-id-redirect',
				clientSecret: SECRET,
				level: 'organisation',
			}),
		]);
		const wallet = spendeskNode(
			'Wallet (continue)',
			{
				resource: 'walletSummary',
				operation: 'get',
				companyScope: 'one',
				company: { __rl: true, mode: 'id', value: 'cmp_001' },
			},
			KEY,
			[300, 0],
			{ onError: 'continueRegularOutput' },
		);
		await importWorkflows(home, [batchWorkflow('e2eRedirect', 'e2eRedirect', [[wallet]])]);
		run = async (id) => {
			const exec = await execute(home, id);
			const [item] = items(exec.run, 'Wallet (continue)');
			return item;
		};
	});

	afterAll(async () => {
		for (const server of [api, other])
			await new Promise<void>((resolve) => server.close(() => resolve()));
	});

	const expectRefused = (item: Record<string, unknown>) => {
		const text = `${String(item.error)} ${String(item.description)}`;
		expect(text).toContain(targetHost);
		expect(text).toMatch(/never redirects/);
		for (const secret of ['query-secret-5f', SECRET, TOKEN])
			expect(JSON.stringify(item)).not.toContain(secret);
	};

	it('a 307 on the token request: the run says so, and the client secret reaches no other host', async () => {
		tokenOk = false;
		received.length = 0;
		expectRefused(await run('e2eRedirect'));
		expect(received).toEqual([]);
	});

	it('a 307 on an API call: the run says so, and the token and company reach no other host', async () => {
		tokenOk = true;
		received.length = 0;
		const item = await run('e2eRedirect');
		expectRefused(item);
		expect(String(item.error)).toContain('"cmp_001"');
		expect(received).toEqual([]);
	});
});
