/**
 * A small, faithful stand-in for the parts of n8n's execution context the package uses.
 *
 * It mirrors n8n 2.8 (n8n-core 2.8.1 `httpRequestWithAuthentication`, the CLI's
 * `CredentialsHelper.preAuthentication`) closely, because that is where the surprises are:
 * - a credential's token is fetched by its `preAuthentication` only when the hidden
 *   expirable field reads '' (or after a thrown 401), and saved to the credential store, whose
 *   every read applies defaults and resolves expressions as n8n does;
 * - a thrown 401 re-runs preAuthentication once and retries once;
 * - `ignoreHttpStatusErrors` truthy (2.8: even `{ignore, except}`) returns every status, so a
 *   401 is NOT refreshed; with n8nVersion '2.9' the `except` list is honoured;
 * - errors reach the node as NodeApiError with `httpCode` and no response headers.
 * Every request crosses real HTTP (Node's fetch) to the simulator.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError, Workflow } from 'n8n-workflow';
import type {
	IBinaryData,
	INodeParameters,
	INodeTypeDescription,
	INodeTypes,
	NodeParameterValueType,
} from 'n8n-workflow';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SpendeskApi } from '../../credentials/SpendeskApi.credentials';
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';

export type N8nVersion = '2.8' | '2.9';

/** Shaped like axios' error, so NodeApiError reads it as n8n does. */
export class AxiosError extends Error {
	constructor(
		message: string,
		readonly code?: string,
		readonly response?: {
			status: number;
			statusText: string;
			headers: Record<string, string>;
			data: unknown;
		},
	) {
		super(message);
	}
	readonly isAxiosError = true;
}

const CREDENTIAL_CLASSES: Record<string, ICredentialType> = {
	spendeskApi: new SpendeskApi(),
	spendeskOAuth2Api: new SpendeskOAuth2Api(),
};

/**
 * The credentials "database": what preAuthentication writes to. Each credential is kept as JSON
 * text, as n8n keeps it encrypted; every read gives a new copy with the property defaults
 * applied and every `={{ … }}` value resolved over the data itself (`$self`), as n8n's
 * CredentialsHelper.applyDefaultsAndOverwrites does on each read (stored values included).
 */
export class CredentialStore {
	private readonly data = new Map<string, string>();
	readonly writes: string[] = [];

	set(type: string, value: ICredentialDataDecryptedObject): void {
		this.data.set(type, JSON.stringify(value));
	}

	/** A fresh decrypted copy, as n8n's getCredentials gives on every call. */
	get(type: string): ICredentialDataDecryptedObject {
		const text = this.data.get(type);
		if (text === undefined) throw new Error(`No credential of type ${type} in the test store`);
		return resolved(type, JSON.parse(text) as ICredentialDataDecryptedObject);
	}

	/** The data as stored, expressions unresolved (what n8n's database holds). */
	stored(type: string): ICredentialDataDecryptedObject {
		const text = this.data.get(type);
		if (text === undefined) throw new Error(`No credential of type ${type} in the test store`);
		return JSON.parse(text) as ICredentialDataDecryptedObject;
	}

	update(type: string, value: ICredentialDataDecryptedObject): void {
		this.writes.push(type);
		this.data.set(type, JSON.stringify(value));
	}
}

const NO_TYPES = {
	getByName: () => undefined,
	getByNameAndVersion: () => undefined,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** applyDefaultsAndOverwrites of n8n 2.8: defaults, then expressions over `$self`, with n8n-workflow's own engine. */
function resolved(
	type: string,
	value: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const cls = CREDENTIAL_CLASSES[type];
	if (!cls) return value;
	const withDefaults = NodeHelpers.getNodeParameters(
		cls.properties,
		value as INodeParameters,
		true,
		false,
		null,
		null,
	) as ICredentialDataDecryptedObject;
	const mock: INode = { ...MOCK_CREDENTIAL_NODE };
	const workflow = new Workflow({
		nodes: [mock],
		connections: {},
		active: false,
		nodeTypes: NO_TYPES,
	});
	return workflow.expression.getComplexParameterValue(
		mock,
		withDefaults as INodeParameters,
		'internal',
		{} as never,
		undefined,
		undefined,
		withDefaults as never,
	) as ICredentialDataDecryptedObject;
}

const MOCK_CREDENTIAL_NODE: INode = {
	id: 'mock',
	name: 'mock',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function resolveTemplate(template: string, credentials: IDataObject): string {
	const body = template.startsWith('=') ? template.slice(1) : template;
	return body.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, name: string) =>
		String(credentials[name] ?? ''),
	);
}

/**
 * A query parameter as n8n-core's axios serializer writes it (`qs.stringify` with the request's
 * `arrayFormat`, `indices` when none is given): a list as `k[0]=a&k[1]=b` (indices), `k=a&k=b`
 * (repeat), `k[]=a&k[]=b` (brackets) or `k=a,b` (comma); an object as `k[sub]=…`.
 */
function appendQuery(
	query: URLSearchParams,
	key: string,
	value: unknown,
	format: NonNullable<IHttpRequestOptions['arrayFormat']>,
): void {
	if (value === undefined || value === null) return;
	if (Array.isArray(value)) {
		if (format === 'comma') query.append(key, value.map(String).join(','));
		else
			value.forEach((v, i) =>
				appendQuery(
					query,
					format === 'repeat' ? key : format === 'brackets' ? `${key}[]` : `${key}[${i}]`,
					v,
					format,
				),
			);
	} else if (typeof value === 'object' && !(value instanceof Date))
		for (const [k, v] of Object.entries(value)) appendQuery(query, `${key}[${k}]`, v, format);
	else query.append(key, value instanceof Date ? value.toISOString() : String(value));
}

/** n8n-core's httpRequest over fetch: axios-like options, results and errors. */
export async function httpRequest(
	options: IHttpRequestOptions,
	n8nVersion: N8nVersion = '2.8',
): Promise<unknown> {
	const url = new URL(options.url, options.baseURL);
	if (options.qs) {
		// The query written once: every url.searchParams.set writes the whole URL again.
		const query = new URLSearchParams(url.search);
		let changed = false;
		for (const [k, v] of Object.entries(options.qs)) {
			if (v === undefined || v === null) continue;
			query.delete(k);
			appendQuery(query, k, v, options.arrayFormat ?? 'indices');
			changed = true;
		}
		if (changed) url.search = query.toString();
	}
	const headers: Record<string, string> = {};
	for (const [k, v] of Object.entries(options.headers ?? {}))
		if (v !== undefined) headers[k.toLowerCase()] = String(v);
	if (options.json && !headers.accept) headers.accept = 'application/json';
	if (options.auth) {
		headers.authorization = `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}`;
	}
	const method = (options.method ?? 'GET').toUpperCase();
	let body: string | undefined;
	let bytes: Buffer | undefined;
	if (Buffer.isBuffer(options.body)) {
		// axios sends a Buffer as it is (n8n-core drops an empty one: no body).
		if (method !== 'GET' && options.body.length > 0) bytes = options.body;
	} else if (
		method !== 'GET' &&
		options.body !== undefined &&
		!(typeof options.body === 'object' && Object.keys(options.body as object).length === 0)
	) {
		if (typeof options.body === 'string' || options.body instanceof URLSearchParams) {
			body = String(options.body);
		} else {
			body = JSON.stringify(options.body);
			headers['content-type'] ??= 'application/json';
		}
	}
	// axios' `signal`: an abort ends the request wherever it is (waiting for headers or reading
	// the body) and drops the connection; a signal already aborted sends nothing.
	const signal = options.abortSignal as AbortSignal | undefined;
	const canceled = () => new AxiosError('canceled', 'ERR_CANCELED');
	if (signal?.aborted) throw canceled();
	// As axios: one listener on the signal for the time of the request (a stream body, read by
	// the caller after this returns, keeps fetch's own handling of the signal).
	const cancel = signal && options.encoding !== 'stream' ? cancelOnAbort(signal) : undefined;
	let res: Response;
	try {
		// A plain timer, like axios' socket timeout (an idle timeout: no byte for `timeout` ms; here
		// until the headers, a body that keeps trickling is never cut).
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(
				() => reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' })),
				options.timeout ?? 60_000,
			);
		});
		try {
			res = await Promise.race([
				fetchFollowing(url, {
					method,
					headers,
					body: bytes ? new Uint8Array(bytes) : body,
					signal: cancel ? cancel.signal : signal,
					dispatcher: cancel?.dispatcher,
					follow: options.disableFollowRedirect !== true,
				}),
				timeout,
			]);
		} finally {
			clearTimeout(timer);
		}
	} catch (error) {
		cancel?.done();
		if (signal?.aborted) throw canceled();
		// axios reports a dropped socket as ECONNRESET ("socket hang up"); undici calls it UND_ERR_SOCKET.
		const cause = (error as { cause?: { code?: string } }).cause;
		const timedOut = (error as Error).name === 'TimeoutError';
		const code = timedOut
			? 'ECONNABORTED'
			: cause?.code && !cause.code.startsWith('UND_ERR')
				? cause.code
				: 'ECONNRESET';
		throw new AxiosError(
			code === 'ECONNRESET' ? 'socket hang up' : String((error as Error).message),
			code,
		);
	}
	let data: unknown;
	if (options.encoding === 'stream') {
		// axios' responseType 'stream': the body as a Node stream, read (or destroyed) by the caller.
		data = res.body
			? Readable.fromWeb(res.body as import('node:stream/web').ReadableStream)
			: Readable.from([]);
	} else {
		let raw: Buffer;
		try {
			raw = await bodyBytes(res);
		} catch (error) {
			if (signal?.aborted) throw canceled();
			throw error;
		} finally {
			cancel?.done();
		}
		// axios' responseType 'arraybuffer' gives the bytes as a Buffer, whatever the status.
		data = options.encoding === 'arraybuffer' ? raw : parseText(raw.toString('utf8'));
	}
	const responseHeaders: Record<string, string> = {};
	res.headers.forEach((v, k) => (responseHeaders[k] = v));
	const ignore = options.ignoreHttpStatusErrors as unknown;
	let throws = res.status < 200 || res.status >= 300;
	if (ignore) {
		const except = (ignore as { except?: number[] }).except;
		throws = n8nVersion === '2.9' && Array.isArray(except) ? except.includes(res.status) : false;
	}
	if (throws) {
		throw new AxiosError(`Request failed with status code ${res.status}`, undefined, {
			status: res.status,
			statusText: res.statusText,
			headers: responseHeaders,
			data,
		});
	}
	if (options.returnFullResponse) {
		return {
			body: data as IN8nHttpFullResponse['body'],
			headers: responseHeaders,
			statusCode: res.status,
			statusMessage: res.statusText,
		} satisfies IN8nHttpFullResponse;
	}
	return data;
}

/**
 * fetch, following redirects as n8n-core's axios does unless `disableFollowRedirect`: up to 21,
 * 307/308 with the same method and body, 301/302/303 as a GET without body, and every header
 * kept, `Authorization` included on another origin (n8n's `sendCredentialsOnCrossOriginRedirect`
 * defaults to true).
 */
async function fetchFollowing(
	start: URL,
	init: {
		method: string;
		headers: Record<string, string>;
		body: RequestInit['body'];
		signal?: AbortSignal;
		/** fetch's (undici's) dispatcher option. */
		dispatcher?: object;
		follow: boolean;
	},
): Promise<Response> {
	let url = start;
	let { method, body } = init;
	const headers = { ...init.headers };
	for (let hops = 0; ; hops++) {
		const res = await fetch(url, {
			method,
			headers,
			body,
			redirect: 'manual',
			signal: init.signal,
			dispatcher: init.dispatcher,
		} as RequestInit);
		const location = res.headers.get('location');
		if (!init.follow || !location || ![301, 302, 303, 307, 308].includes(res.status)) return res;
		if (hops >= 21)
			throw new AxiosError('Maximum number of redirects exceeded', 'ERR_FR_TOO_MANY_REDIRECTS');
		await res.arrayBuffer().catch(() => undefined);
		url = new URL(location, url);
		if (res.status !== 307 && res.status !== 308 && method !== 'GET' && method !== 'HEAD') {
			method = 'GET';
			body = undefined;
			delete headers['content-type'];
		}
	}
}

interface Dispatcher {
	dispatch: (options: unknown, handler: { onConnect: (abort: Abort) => void }) => boolean;
}
type Abort = (reason: Error) => void;

/** fetch's shared connection pool (undici's global dispatcher), once fetch has been used. */
const globalDispatcher = () =>
	(globalThis as Record<symbol, Dispatcher | undefined>)[Symbol.for('undici.globalDispatcher.1')];

/**
 * A request aborted by `signal` as axios aborts one: a listener on the signal for the time of
 * the request, which drops the connection. fetch's own `signal` option costs far more for every
 * request (undici follows the signal with a weak reference, a finalizer and a listener that
 * stays until the request is garbage-collected), a cost n8n's requests do not have. Without a
 * connection pool yet (no fetch so far), fetch's own handling is used.
 */
function cancelOnAbort(signal: AbortSignal): {
	dispatcher?: Dispatcher;
	signal?: AbortSignal;
	done: () => void;
} {
	const pool = globalDispatcher();
	if (!pool) return { signal, done: () => {} };
	let abort: Abort | undefined;
	const onAbort = () => abort?.(new Error('canceled'));
	signal.addEventListener('abort', onAbort);
	const dispatcher: Dispatcher = {
		dispatch(options, handler) {
			const onConnect = handler.onConnect;
			handler.onConnect = function (this: unknown, connectionAbort) {
				abort = connectionAbort;
				onConnect.call(this, connectionAbort);
				if (signal.aborted) connectionAbort(new Error('canceled'));
			};
			return pool.dispatch(options, handler);
		},
	};
	return { dispatcher, done: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * The body's bytes as axios collects them: its chunks concatenated once into a Buffer.
 * (Response.arrayBuffer() would copy them a second time, which neither axios nor the bare
 * fetch loop of the benchmark does.)
 */
async function bodyBytes(res: Response): Promise<Buffer> {
	if (!res.body) return Buffer.alloc(0);
	const chunks: Uint8Array[] = [];
	let size = 0;
	const reader = res.body.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return Buffer.concat(chunks, size);
		chunks.push(value);
		size += value.length;
	}
}

/** axios' default: JSON when it parses, else the text. */
function parseText(text: string): unknown {
	try {
		return text ? (JSON.parse(text) as unknown) : '';
	} catch {
		return text;
	}
}

/** n8n's prepareBinaryData in its default (in-memory) mode: the bytes in base64, name and type kept. */
async function prepareBinaryData(
	data: Buffer,
	filePath?: string,
	mimeType?: string,
): Promise<IBinaryData> {
	const fileName = filePath ? path.parse(filePath).base : undefined;
	const fileExtension = fileName ? path.parse(fileName).ext.slice(1) || undefined : undefined;
	return {
		data: data.toString('base64'),
		mimeType: mimeType ?? 'text/plain',
		...(fileName ? { fileName } : {}),
		...(fileExtension ? { fileExtension } : {}),
		fileSize: `${data.length} B`,
	};
}

export interface ContextOptions {
	store: CredentialStore;
	/** Node parameters (the `authentication` parameter picks the credential). */
	parameters?: IDataObject;
	n8nVersion?: N8nVersion;
	items?: INodeExecutionData[];
	continueOnFail?: boolean;
	/** The node's Settings → On Error (continueOnFail follows it unless given). */
	onError?: INode['onError'];
	nodeName?: string;
	nodeType?: string;
	typeVersion?: number;
	staticData?: IDataObject;
	mode?: 'manual' | 'trigger';
	/** The workflow's id, as n8n gives it to a node (getWorkflow().id); undefined by default. */
	workflowId?: string;
	/** n8n's execution id (getExecutionId); default: a new id per context. */
	executionId?: string;
	/** The execution's cancel signal (getExecutionCancelSignal of an execute context); default: one that never aborts. */
	cancelSignal?: AbortSignal;
	/** Other parameters for single items, over `parameters` (taken as they are, not evaluated). */
	itemParameters?: IDataObject[];
	/** The workflow's time zone (getTimezone); default UTC. */
	timezone?: string;
	/**
	 * The node's description: `parameters` then go through n8n's own resolution, as n8n's
	 * Workflow does before it runs a node (NodeHelpers.getNodeParameters: defaults filled in,
	 * parameters the editor would not display left out).
	 */
	description?: INodeTypeDescription;
	/**
	 * For a load-options context: the parameter the method runs for, as n8n's LoadOptionsContext
	 * holds it (e.g. `parameters.customFields.field[0].valueId`), against which a name starting
	 * with "&" is read (a field of the same row).
	 */
	path?: string;
}

let executions = 0;

/** No node type is ever looked up: the expressions the tests use read the input item only. */
const NO_NODE_TYPES = {
	getByName: () => undefined,
	getByNameAndVersion: () => undefined,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** Builds an execution context whose helpers do real HTTP with n8n 2.8's authentication flow. */
export function createContext(options: ContextOptions) {
	const n8nVersion = options.n8nVersion ?? '2.8';
	const given = options.parameters ?? {};
	const parameters = options.description
		? ((NodeHelpers.getNodeParameters(
				options.description.properties,
				given as INodeParameters,
				true,
				false,
				{ typeVersion: options.typeVersion ?? 1, parameters: given } as INode,
				options.description,
			) ?? {}) as IDataObject)
		: given;
	const node: INode = {
		id: 'node-1',
		name: options.nodeName ?? 'Spendesk',
		type: options.nodeType ?? 'n8n-nodes-spendesk.spendesk',
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		...(options.onError ? { onError: options.onError } : {}),
		credentials: {
			spendeskApi: { id: 'cred-api', name: 'Spendesk API key' },
			spendeskOAuth2Api: { id: 'cred-oauth', name: 'Spendesk OAuth2' },
		},
	};
	const hints: Array<{ message: string }> = [];
	const logs: Array<{ level: string; message: string }> = [];

	/**
	 * A parameter read with extractValue, as n8n-core 2.8 reads it: with the node's description,
	 * the parameter must be one the editor shows (n8n fails with "Could not find property"
	 * otherwise, even when it would give the fallback), and a resource locator gives its value;
	 * without a description, a value marked `__rl` gives its value.
	 */
	function extracted(name: string, value: unknown): unknown {
		const locator =
			value !== null && typeof value === 'object' && 'mode' in value && 'value' in value;
		const description = options.description;
		if (!description || name.includes('.'))
			return locator && (value as IDataObject).__rl ? (value as IDataObject).value : value;
		const property = description.properties.find(
			(p) =>
				p.name === name &&
				NodeHelpers.displayParameterPath(parameters as INodeParameters, p, '', node, description),
		);
		if (!property) throw new NodeOperationError(node, 'Could not find property');
		return property.type === 'resourceLocator' && locator ? (value as IDataObject).value : value;
	}
	const request = (opts: IHttpRequestOptions) => httpRequest(opts, n8nVersion);

	/** CredentialsHelper.preAuthentication of n8n 2.8. */
	async function preAuthentication(
		type: string,
		credentials: ICredentialDataDecryptedObject,
		expired: boolean,
	) {
		const cls = CREDENTIAL_CLASSES[type];
		const expirable = cls.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || !cls.preAuthentication) return undefined;
		if (credentials[expirable.name] !== '' && !expired) return undefined;
		const output = await cls.preAuthentication.call(
			{ helpers: { httpRequest: request } } as never,
			credentials,
		);
		if (output[expirable.name] === undefined) return undefined;
		Object.assign(credentials, output);
		options.store.update(type, credentials);
		return credentials;
	}

	function authenticate(
		type: string,
		credentials: ICredentialDataDecryptedObject,
		opts: IHttpRequestOptions,
	): IHttpRequestOptions {
		const auth = CREDENTIAL_CLASSES[type].authenticate as
			| { properties: { headers?: Record<string, string> } }
			| undefined;
		const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
		for (const [k, v] of Object.entries(auth?.properties.headers ?? {}))
			headers[k] = resolveTemplate(v, credentials);
		return { ...opts, headers };
	}

	/** httpRequestWithAuthentication of n8n-core 2.8.1 (and 2.41.1). */
	async function httpRequestWithAuthentication(
		this: unknown,
		type: string,
		opts: IHttpRequestOptions,
	) {
		// As n8n-core: the execution's cancel signal replaces any abortSignal of the request
		// when the helper is called on an execute context (`this`).
		if (this && typeof this === 'object' && 'getExecutionCancelSignal' in this) {
			opts.abortSignal = (
				this as { getExecutionCancelSignal: () => AbortSignal | undefined }
			).getExecutionCancelSignal();
		}
		let credentials: ICredentialDataDecryptedObject | undefined;
		let requestOptions = opts;
		try {
			credentials = options.store.get(type);
			await preAuthentication(type, credentials, false);
			requestOptions = authenticate(type, credentials, requestOptions);
			return await request(requestOptions);
		} catch (error) {
			if ((error as AxiosError).response?.status === 401) {
				try {
					if (credentials !== undefined) {
						await preAuthentication(type, credentials, true);
						requestOptions = authenticate(type, credentials, requestOptions);
					}
					return await request(requestOptions);
				} catch (retryError) {
					throw new NodeApiError(node, retryError as never);
				}
			}
			throw new NodeApiError(node, error as never);
		}
	}

	const items: INodeExecutionData[] = options.items ?? [{ json: {} }];
	const workflow = new Workflow({
		id: options.workflowId,
		nodes: [node],
		connections: {},
		active: options.mode === 'trigger',
		nodeTypes: NO_NODE_TYPES,
	});
	/**
	 * A parameter's value for one item, as n8n-core's getNodeParameter evaluates it: n8n's own
	 * expression engine (`={{ … }}` anywhere in the value, also inside collections and resource
	 * locators), reading the node's input items.
	 */
	const evaluate = (value: unknown, itemIndex: number): unknown =>
		workflow.expression.getParameterValue(
			value as NodeParameterValueType,
			null,
			0,
			itemIndex,
			node.name,
			items,
			options.mode ?? 'manual',
			{},
		);
	const staticData = options.staticData ?? {};

	const executionId = options.executionId ?? String(++executions);
	const cancelSignal = options.cancelSignal ?? new AbortController().signal;
	const executeOnly =
		options.mode === 'trigger' ? {} : { getExecutionCancelSignal: () => cancelSignal };

	const context = {
		...executeOnly,
		getExecutionId: () => executionId,
		getNode: () => node,
		getWorkflow: () => ({
			id: options.workflowId,
			name: 'Spendesk workflow',
			active: options.mode === 'trigger',
		}),
		getCredentials: async (type: string) => options.store.get(type),
		getNodeParameter(
			name: string,
			itemIndexOrFallback?: unknown,
			fallback?: unknown,
			nodeOptions?: { extractValue?: boolean },
		) {
			const itemIndex = typeof itemIndexOrFallback === 'number' ? itemIndexOrFallback : undefined;
			// A value of `itemParameters` is taken as it is.
			const own = itemIndex === undefined ? undefined : options.itemParameters?.[itemIndex];
			const given = own && name.split('.')[0] in own;
			const raw = name
				.split('.')
				.reduce<unknown>(
					(acc, key) => (acc as IDataObject | undefined)?.[key],
					given ? { ...parameters, ...own } : parameters,
				);
			// As n8n-core: the fallback stands only for a parameter the node does not hold (not for an
			// expression giving undefined); without one, that is an error.
			const value =
				raw === undefined ? (itemIndex === undefined ? itemIndexOrFallback : fallback) : raw;
			if (value === undefined) throw new Error(`Could not get parameter "${name}"`);
			// The item's expressions through n8n's own engine (fallback included, as n8n-core does).
			const evaluated = itemIndex === undefined || given ? value : evaluate(value, itemIndex);
			return nodeOptions?.extractValue ? extracted(name, evaluated) : evaluated;
		},
		// Load-options contexts: the node's parameters as the editor holds them. As n8n-core's
		// LoadOptionsContext, "&name" is read beside the parameter the method runs for (`path`),
		// and a path may index a list (`field[0]`).
		getCurrentNodeParameter(name: string, nodeOptions?: { extractValue?: boolean }) {
			const resolved = name.startsWith('&')
				? `${(options.path ?? '').split('.').slice(1, -1).join('.')}.${name.slice(1)}`
				: name;
			const key = resolved.replace(/\[(\d+)\]/g, '.$1');
			if (nodeOptions?.extractValue)
				return context.getNodeParameter(key, undefined, undefined, nodeOptions);
			// n8n-core reads the editor's parameters as they are: one not held is undefined.
			try {
				return context.getNodeParameter(key, undefined, undefined);
			} catch {
				return undefined;
			}
		},
		getInputData: () => items,
		getTimezone: () => options.timezone ?? 'UTC',
		continueOnFail: () =>
			options.continueOnFail ??
			(options.onError === 'continueRegularOutput' || options.onError === 'continueErrorOutput'),
		getMode: () => options.mode ?? 'manual',
		getWorkflowStaticData: () => staticData,
		addExecutionHints: (...h: Array<{ message: string }>) => hints.push(...h),
		logger: {
			debug: (message: string) => logs.push({ level: 'debug', message }),
			info: (message: string) => logs.push({ level: 'info', message }),
			warn: (message: string) => logs.push({ level: 'warn', message }),
			error: (message: string) => logs.push({ level: 'error', message }),
		},
		helpers: {
			prepareBinaryData,
			/** n8n's assertBinaryData: the item's binary property, or the error n8n gives. */
			assertBinaryData(itemIndex: number, propertyName: string): IBinaryData {
				const binary = items[itemIndex]?.binary?.[propertyName];
				if (!binary) {
					throw new NodeOperationError(
						node,
						`This operation expects the node's input data to contain a binary file '${propertyName}', but none was found [item ${itemIndex}]`,
						{ itemIndex },
					);
				}
				return binary;
			},
			async getBinaryDataBuffer(itemIndex: number, propertyName: string): Promise<Buffer> {
				const binary = items[itemIndex]?.binary?.[propertyName];
				if (!binary) throw new Error(`No binary property ${propertyName} on item ${itemIndex}`);
				return Buffer.from(binary.data, 'base64');
			},
			httpRequest: request,
			httpRequestWithAuthentication,
			// As n8n-core 2.8.4 writes them (the shape of the objects matters to memory and speed).
			returnJsonArray: (data: IDataObject | IDataObject[]) =>
				(Array.isArray(data) ? data : [data]).map((json) =>
					json?.json ? { ...json, json: json.json as IDataObject } : { json },
				),
			constructExecutionMetaData: (
				data: INodeExecutionData[],
				meta: { itemData: { item: number } },
			) =>
				data.map((d) => {
					const { json, ...rest } = d;
					return { json, pairedItem: meta.itemData, ...rest };
				}),
		},
	};
	return { context, node, hints, logs, staticData };
}
