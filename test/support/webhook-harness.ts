/**
 * The Webhook Trigger the way n8n runs it, on real HTTP: an HTTP receiver on 127.0.0.1 that,
 * like n8n's live webhooks, reads the raw body, calls the node's webhook method with a
 * request and response, and answers 200 when an execution starts ("onReceived"), the node's
 * own answer when it sends one, or 500 when the method throws. Activation and deactivation
 * call checkExists / create / delete as n8n does. Static data as n8n handles it: each call
 * works on its own copy loaded when it starts (n8n reads the workflow from its database per
 * delivery), saved when the call succeeds (last save wins; a copy, as n8n writes it to its
 * database at that moment), not saved when it throws.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject, IWebhookResponseData } from 'n8n-workflow';
import { SpendeskWebhookTrigger } from '../../nodes/Spendesk/SpendeskWebhookTrigger.node';
import type { SpendeskSimulator } from '../simulator';
import { authenticationOf, storeFor } from './fixtures';
import type { CredentialKind } from './fixtures';
import { createContext } from './n8n-context';
import type { CredentialStore } from './n8n-context';

export interface Answer {
	status: number;
	body: unknown;
}

export interface WebhookHarness {
	/** The node's production webhook URL (this receiver). */
	url: string;
	staticData: IDataObject;
	/** Items of each execution started, in order. */
	executions: IDataObject[][];
	/** Errors the webhook method threw (answered 500). */
	errors: Error[];
	logs: Array<{ level: string; message: string }>;
	/** n8n's activation: checkExists, then create when it says false. Resolves with whether create ran. */
	activate(): Promise<boolean>;
	checkExists(): Promise<boolean>;
	create(): Promise<boolean>;
	/** n8n's deactivation: delete. */
	deactivate(): Promise<boolean>;
	/** POSTs a body (bytes as given) with headers to the receiver. */
	deliver(body: string, headers?: Record<string, string>): Promise<Answer>;
	close(): Promise<void>;
}

let workflows = 0;

export interface HarnessOptions {
	kind?: CredentialKind;
	store?: CredentialStore;
	staticData?: IDataObject;
	/** The workflow id n8n gives the trigger (the in-process memory of event ids is per workflow and node). */
	workflowId?: string;
}

export async function startWebhookHarness(
	sim: SpendeskSimulator,
	parameters: IDataObject,
	options: HarnessOptions = {},
): Promise<WebhookHarness> {
	const kind = options.kind ?? 'orgKey';
	const store = options.store ?? (await storeFor(sim, kind));
	let saved: IDataObject = options.staticData ?? {};
	const workflowId = options.workflowId ?? `wf-webhook-${++workflows}`;
	const trigger = new SpendeskWebhookTrigger();
	const executions: IDataObject[][] = [];
	const errors: Error[] = [];
	const logs: Array<{ level: string; message: string }> = [];
	let url = '';

	/** A context working on `staticData` (a copy of the saved static data). */
	function contextOf(staticData: IDataObject) {
		const made = createContext({
			store,
			parameters: { authentication: authenticationOf(kind), ...parameters },
			staticData,
			mode: 'trigger',
			workflowId,
			nodeName: 'Spendesk Webhook Trigger',
			nodeType: 'n8n-nodes-spendesk.spendeskWebhookTrigger',
			// The parameters as n8n resolves them before it runs the trigger.
			description: trigger.description,
		});
		made.logs.push = (...entries) => logs.push(...entries);
		return { ...made.context, getNodeWebhookUrl: () => url };
	}

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => void handle(req, res, Buffer.concat(chunks)));
	});

	async function handle(
		req: http.IncomingMessage,
		res: http.ServerResponse,
		rawBody: Buffer,
	): Promise<void> {
		const send = (status: number, body: unknown) => {
			if (res.headersSent) return;
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		// The parts of Express's response the node may use.
		const response = {
			status(code: number) {
				res.statusCode = code;
				return response;
			},
			json(body: unknown) {
				send(res.statusCode, body);
				return response;
			},
		};
		let parsed: unknown;
		try {
			parsed = JSON.parse(rawBody.toString('utf8'));
		} catch {
			parsed = {};
		}
		const working = structuredClone(saved);
		const ctx = {
			...contextOf(working),
			getRequestObject: () => ({ rawBody, headers: req.headers, body: parsed }),
			getResponseObject: () => response,
			getHeaderData: () => req.headers,
			getBodyData: () => parsed,
		};
		let result: IWebhookResponseData;
		try {
			result = await trigger.webhook.call(ctx as never);
		} catch (error) {
			errors.push(error as Error);
			send(500, { message: 'Error in workflow' });
			return;
		}
		saved = structuredClone(working);
		if (result.noWebhookResponse) {
			if (!res.headersSent) send(500, { message: 'no answer sent' });
			return;
		}
		if (result.workflowData) {
			executions.push(result.workflowData[0].map((item) => item.json));
			send(200, { message: 'Workflow was started' });
			return;
		}
		send(200, result.webhookResponse ?? { message: 'Webhook call received' });
	}

	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	url = `http://127.0.0.1:${port}/webhook/${workflowId}/webhook`;
	const methods = trigger.webhookMethods.default;
	/** Runs a webhook method on a copy of the static data, saved when it succeeds. */
	async function hook(method: (this: never) => Promise<boolean>): Promise<boolean> {
		const working = structuredClone(saved);
		const result = await method.call(contextOf(working) as never);
		saved = structuredClone(working);
		return result;
	}

	return {
		url,
		get staticData() {
			return saved;
		},
		executions,
		errors,
		logs,
		checkExists: async () => await hook(methods.checkExists),
		create: async () => await hook(methods.create),
		async activate() {
			if (await hook(methods.checkExists)) return false;
			await hook(methods.create);
			return true;
		},
		deactivate: async () => await hook(methods.delete),
		async deliver(body, headers = {}) {
			const answer = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body,
			});
			const text = await answer.text();
			let parsedAnswer: unknown = text;
			try {
				parsedAnswer = JSON.parse(text);
			} catch {
				// not JSON
			}
			return { status: answer.status, body: parsedAnswer };
		},
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
