/**
 * `npm run simulator`: serves the Spendesk API simulator on 127.0.0.1 and prints its base
 * URL and ready-to-use credentials. Flags: --port N, --companies N, --invoices N, --seed N,
 * --rate-limit N (requests per minute per company), --latency MS, --max-in-flight N,
 * --token-lifetime SECONDS, --webhook-time-scale X (multiplies the waits of the webhook retry
 * schedule: 0.001 makes 10 minutes 0.6 s), --profile specification|documented (what Spendesk
 * documents publicly, strictly: docs/api.md#the-documented-profile).
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

/** The --profile flag: specification (the default) or documented. */
function profileFlag(value: string | undefined): SimulatorOptions['profile'] {
	if (value === undefined) return undefined;
	if (value !== 'specification' && value !== 'documented')
		throw new Error('--profile must be specification or documented');
	return value;
}

async function main(): Promise<void> {
	const f = flags(process.argv.slice(2));
	const options: SimulatorOptions = {
		profile: profileFlag(f.profile),
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
	const { orgKey, companyKey, companyKeys, oauthClient } = sim.credentials;
	const active = sim.companies().filter((c) => c.active);
	const documented = sim.profile === 'documented';
	const otherCompanyKeys = Object.values(companyKeys).filter((k) => k !== companyKey);
	const lines = [
		`Spendesk API simulator listening on ${url} (profile: ${sim.profile})`,
		...(documented
			? [
					'  documented profile: keys hold only the documented scopes, every /v2 call is 403 without its',
					'  experimental scope, errors carry the documented codes, 50 requests a minute per company, 5 in flight',
				]
			: []),
		`File host (pre-signed attachment and upload URLs) on ${sim.fileBaseUrl}`,
		'',
		`Organisation ${sim.organisationId}: ${active.length} active companies (${active.map((c) => c.id).join(', ')}), ` +
			`${sim.companies().length - active.length} deactivated`,
		'',
		'Credentials (use "Custom" environment with this base URL):',
		`  Organisation API key   client id ${orgKey.clientId}   secret ${orgKey.clientSecret}`,
		`  Company API key        client id ${companyKey.clientId}   secret ${companyKey.clientSecret}   (company ${companyKey.companyId})`,
		...otherCompanyKeys.map(
			(k) =>
				`                         client id ${k.clientId}   secret ${k.clientSecret}   (company ${k.companyId})`,
		),
		`  OAuth2 client          client id ${oauthClient.clientId}   secret ${oauthClient.clientSecret}`,
		`                         authorize ${url}/v1/oauth2/authorize   token ${url}/v1/oauth2/token/create   refresh ${url}/v1/oauth2/token/refresh?client_id=…&client_secret=…`,
		'',
		'Try:',
		`  curl -s -X POST ${url}/v1/auth/token -u ${orgKey.clientId}:${orgKey.clientSecret} \\`,
		`       -H 'content-type: application/json' -d '{"grant_type":"client_credentials"}'`,
		documented
			? `  curl -s ${url}/v1/expense-categories -H "authorization: Bearer <access_token>" -H 'x-company-id: ${active[0]?.id ?? 'cmp_001'}'`
			: `  curl -s ${url}/v2/companies -H "authorization: Bearer <access_token>"`,
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
