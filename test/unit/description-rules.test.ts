/**
 * The editor as n8n's UX guidelines for verified community nodes want it, checked on the whole
 * description of the node, both triggers and the two credentials: every parameter, every
 * option, collection and fixedCollection values included, whether a list is written out or
 * built with `.map` or spreads (n8n's lint reads literals only). Each check lists every
 * offending parameter by its path, e.g. `Spendesk › Limit [resource=invoice, operation=getAll]`.
 *
 * The source classes are checked; when `dist/` exists (CI builds before the tests), the
 * compiled classes n8n loads are checked the same way.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
} from 'n8n-workflow';
import { SpendeskApi } from '../../credentials/SpendeskApi.credentials';
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { SpendeskWebhookTrigger } from '../../nodes/Spendesk/SpendeskWebhookTrigger.node';

type Option = INodePropertyOptions | INodeProperties | INodePropertyCollection;

interface Described {
	/** Where the classes come from: `source` or `dist`. */
	origin: string;
	nodes: INodeType[];
	credentials: ICredentialType[];
}

const fromSource: Described = {
	origin: 'source',
	nodes: [new Spendesk(), new SpendeskTrigger(), new SpendeskWebhookTrigger()],
	credentials: [new SpendeskApi(), new SpendeskOAuth2Api()],
};

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');

function fromDist(): Described {
	const load = (file: string, name: string): unknown => {
		const loaded = jest.requireActual<Record<string, new () => unknown>>(path.join(DIST, file));
		return new loaded[name]();
	};
	return {
		origin: 'dist',
		nodes: [
			load('nodes/Spendesk/Spendesk.node.js', 'Spendesk'),
			load('nodes/Spendesk/SpendeskTrigger.node.js', 'SpendeskTrigger'),
			load('nodes/Spendesk/SpendeskWebhookTrigger.node.js', 'SpendeskWebhookTrigger'),
		] as INodeType[],
		credentials: [
			load('credentials/SpendeskApi.credentials.js', 'SpendeskApi'),
			load('credentials/SpendeskOAuth2Api.credentials.js', 'SpendeskOAuth2Api'),
		] as ICredentialType[],
	};
}

const ORIGINS: Described[] = existsSync(path.join(DIST, 'nodes/Spendesk/Spendesk.node.js'))
	? [fromSource, fromDist()]
	: [fromSource];

/** One parameter with the path that names it in a failure. */
interface Walked {
	path: string;
	property: INodeProperties;
	/** The node's name for its parameters, the credential's for its fields. */
	owner: string;
}

/** A parameter's label in a path: its name, and where it is shown when that tells it apart. */
function label(property: INodeProperties): string {
	const show = property.displayOptions?.show ?? {};
	const where = Object.entries(show)
		.filter(([key]) => ['resource', 'operation', 'companies', 'returnAll'].includes(key))
		.map(([key, values]) => `${key}=${(values ?? []).join('|')}`)
		.join(', ');
	return `${property.displayName} (${property.name})${where ? ` [${where}]` : ''}`;
}

/** Every parameter, recursively: collection options, fixedCollection values. */
function walk(properties: INodeProperties[], prefix: string, owner: string): Walked[] {
	return properties.flatMap((property) => {
		const here = `${prefix} › ${label(property)}`;
		const own: Walked = { path: here, property, owner };
		const options = (property.options ?? []) as Option[];
		if (property.type === 'collection') {
			return [own, ...walk(options as INodeProperties[], here, owner)];
		}
		if (property.type === 'fixedCollection') {
			return [
				own,
				...(options as INodePropertyCollection[]).flatMap((group) =>
					walk(group.values, `${here} › ${group.displayName}`, owner),
				),
			];
		}
		return [own];
	});
}

function everyParameter(described: Described): Walked[] {
	return [
		...described.nodes.flatMap((node) =>
			walk(node.description.properties, node.description.displayName, node.description.name),
		),
		...described.credentials.flatMap((credential) =>
			walk(credential.properties, credential.displayName, credential.name),
		),
	];
}

/** The option lists of a parameter: its options, or a collection's fields, by their shown name. */
function optionNames(property: INodeProperties): string[] {
	const options = (property.options ?? []) as Option[];
	return options.map((option) => ('displayName' in option ? option.displayName : option.name));
}

const hasOptionList = (property: INodeProperties): boolean =>
	['options', 'multiOptions', 'collection', 'fixedCollection'].includes(property.type) &&
	Array.isArray(property.options);

/** As n8n's lint compares names: case-insensitive. */
const byName = (a: string, b: string): number => a.toLowerCase().localeCompare(b.toLowerCase());

/**
 * Lists kept in their natural order, each with the reason. Empty: every list is sorted, as
 * n8n sorts even its HTTP Request node's methods (DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT).
 */
const NATURAL_ORDER: Record<string, string> = {};

/** Words n8n's guidelines keep out of the editor's texts. */
const ALARM_WORDS = /\b(errors?|fail|fails|failed|failing)\b/i;

/** Words that stay lower case inside a Title Case name. */
const SMALL_WORDS = new Set([
	'a',
	'an',
	'and',
	'as',
	'at',
	'by',
	'for',
	'from',
	'in',
	'into',
	'of',
	'on',
	'or',
	'per',
	'the',
	'to',
	'with',
]);

/** The words of a name that are not Title Case (`e.g.` and units in parentheses included). */
function notTitleCase(name: string): string[] {
	return name
		.split(/\s+/)
		.map((word) => word.replace(/^[(["']+/, ''))
		.filter((word, index) => {
			if (!/^[a-z]/.test(word)) return false;
			return index === 0 || !SMALL_WORDS.has(word.replace(/[)\]"',.:;]+$/, ''));
		});
}

/** What an option list holds: options (name/value) as opposed to parameters. */
function valueOptions(property: INodeProperties): INodePropertyOptions[] {
	if (property.type !== 'options' && property.type !== 'multiOptions') return [];
	return (property.options ?? []) as INodePropertyOptions[];
}

/** Offences found by `check` on every parameter, as "path: what". */
function offences(
	described: Described,
	check: (walked: Walked) => string | string[] | undefined,
): string[] {
	return everyParameter(described).flatMap((walked) => {
		const found = check(walked);
		const list = found === undefined ? [] : Array.isArray(found) ? found : [found];
		return list.map((what) => `${walked.path}: ${what}`);
	});
}

/**
 * A subtitle evaluated as n8n evaluates it: the JavaScript inside `={{ … }}` with `$parameter`
 * holding the node's parameter values as saved (an expression stays its text).
 */
function subtitleFor(subtitle: string | undefined, parameters: Record<string, unknown>): unknown {
	const match = /^=\{\{([\s\S]*)\}\}$/.exec(subtitle ?? '');
	if (!match) throw new Error(`Not an expression: ${String(subtitle)}`);
	// n8n cuts an expression at the first "}}": the code must not hold one.
	expect(match[1]).not.toContain('}}');
	const evaluate = new Function('$parameter', `return (${match[1]});`) as (
		p: Record<string, unknown>,
	) => unknown;
	return evaluate(parameters);
}

describe.each(ORIGINS)('description rules ($origin)', (described) => {
	const nodeOf = (name: string) =>
		described.nodes.find((n) => n.description.name === name)!.description;

	test('every option list is sorted by name (collections by display name)', () => {
		const unsorted = offences(described, ({ path: where, property }) => {
			if (!hasOptionList(property) || NATURAL_ORDER[where]) return undefined;
			const names = optionNames(property);
			const sorted = [...names].sort(byName);
			return names.join('|') === sorted.join('|')
				? undefined
				: `${names.join(', ')} (sorted: ${sorted.join(', ')})`;
		});
		expect(unsorted).toEqual([]);
	});

	test('the natural-order exceptions still exist', () => {
		const paths = new Set(everyParameter(described).map((w) => w.path));
		expect(Object.keys(NATURAL_ORDER).filter((p) => !paths.has(p))).toEqual([]);
	});

	test('Resource and Operation descriptions say what it does for the user, without API mechanics', () => {
		const method = /\b(GET|POST|PUT|PATCH|DELETE)\b/;
		const mechanics =
			/\/v\d|[{}]|\boffset\b|\bcursors?\b|page-based|\bsnapshots?\b|\bpages?\b|\bper (call|request)\b|\bsent \d+\b|\bendpoints?\b/i;
		const found = offences(described, ({ property }) => {
			if (property.name !== 'resource' && property.name !== 'operation') return undefined;
			return valueOptions(property)
				.filter((o) => method.test(o.description ?? '') || mechanics.test(o.description ?? ''))
				.map((o) => `${o.name}: "${o.description}"`);
		});
		expect(found).toEqual([]);
	});

	test('every Operation option has a description and an action without articles', () => {
		const found = offences(described, ({ property }) => {
			if (property.name !== 'operation') return undefined;
			return valueOptions(property)
				.filter((o) => !o.description || !o.action || /\b(a|an|the)\b/i.test(o.action))
				.map((o) => `${o.name}: action "${o.action}"`);
		});
		expect(found).toEqual([]);
	});

	test('no Limit has a maximum', () => {
		const found = offences(described, ({ property }) =>
			property.name === 'limit' && property.typeOptions?.maxValue !== undefined
				? `maxValue ${property.typeOptions.maxValue}`
				: undefined,
		);
		expect(found).toEqual([]);
	});

	test('file fields are named as in n8n: no "Binary Property"', () => {
		const found = offences(described, ({ property }) =>
			/binary property/i.test(`${property.displayName} ${property.description ?? ''}`)
				? `"${property.displayName}": ${property.description ?? ''}`
				: undefined,
		);
		expect(found).toEqual([]);
	});

	test('no options parameter offers a single option (Operation lists and loaded lists aside)', () => {
		// An Operation list with one entry is n8n's Resource/Operation pattern: the nodes panel
		// lists the operations' actions from it.
		const found = offences(described, ({ property }) =>
			property.name !== 'operation' &&
			(property.type === 'options' || property.type === 'multiOptions') &&
			!property.typeOptions?.loadOptionsMethod &&
			(property.options ?? []).length < 2
				? `${(property.options ?? []).length} option(s)`
				: undefined,
		);
		expect(found).toEqual([]);
	});

	test('placeholders show example content, not expressions', () => {
		const placeholders = (property: INodeProperties): string[] => [
			property.placeholder ?? '',
			...(property.modes ?? []).map((m) => m.placeholder ?? ''),
		];
		const found = offences(described, ({ property }) =>
			placeholders(property)
				.filter((p) => p.includes('{{'))
				.map((p) => `placeholder "${p}"`),
		);
		expect(found).toEqual([]);
	});

	test('texts avoid the words "error" and "fail"', () => {
		const found = offences(described, ({ property }) => {
			const texts = [
				property.displayName,
				property.description ?? '',
				property.hint ?? '',
				...valueOptions(property).map((o) => o.description ?? ''),
			];
			return texts.filter((t) => ALARM_WORDS.test(t)).map((t) => `"${t}"`);
		});
		expect(found).toEqual([]);
	});

	test('every display name and option name is Title Case (notices aside)', () => {
		const found = offences(described, ({ property }) => {
			const names = [
				...(property.type === 'notice' ? [] : [property.displayName]),
				...valueOptions(property).map((o) => o.name),
			];
			return names.filter((n) => notTitleCase(n).length).map((n) => `"${n}"`);
		});
		expect(found).toEqual([]);
	});

	test('every boolean description starts with "Whether"', () => {
		const found = offences(described, ({ property }) =>
			property.type === 'boolean' && !/^Whether\b/.test(property.description ?? '')
				? `"${property.description ?? ''}"`
				: undefined,
		);
		expect(found).toEqual([]);
	});

	test('Custom API Call pagination names say the style in words, without API field names', () => {
		const pagination = nodeOf('spendesk').properties.find((p) => p.name === 'pagination')!;
		const names = valueOptions(pagination).map((o) => o.name);
		expect(names.length).toBeGreaterThan(2);
		expect(names.filter((n) => /[()]|pageSize|fetch|limit/i.test(n))).toEqual([]);
	});

	test('the node subtitle shows the names of the operation and the resource', () => {
		const node = nodeOf('spendesk');
		const resources = valueOptions(node.properties.find((p) => p.name === 'resource')!);
		const pairs = node.properties
			.filter((p) => p.name === 'operation')
			.flatMap((list) => {
				const resource = resources.find(
					(r) => r.value === (list.displayOptions?.show?.resource ?? [])[0],
				)!;
				return valueOptions(list).map((o) => ({ resource, operation: o }));
			});
		expect(pairs.length).toBeGreaterThan(20);
		const wrong = pairs
			.map(({ resource, operation }) => ({
				got: subtitleFor(node.subtitle, { resource: resource.value, operation: operation.value }),
				want: `${operation.name}: ${resource.name}`,
			}))
			.filter(({ got, want }) => got !== want);
		expect(wrong).toEqual([]);
		// A value the description does not know shows as it is.
		expect(subtitleFor(node.subtitle, { resource: 'invoice', operation: 'later' })).toBe(
			'later: invoice',
		);
	});

	test('the trigger subtitles show event names, also for values from an expression', () => {
		const trigger = nodeOf('spendeskTrigger');
		const events = valueOptions(trigger.properties.find((p) => p.name === 'event')!);
		expect(events.length).toBe(2);
		for (const event of events) {
			expect(subtitleFor(trigger.subtitle, { event: event.value })).toBe(event.name);
		}
		expect(subtitleFor(trigger.subtitle, { event: '={{ $json.event }}' })).toBe(
			'={{ $json.event }}',
		);

		const webhook = nodeOf('spendeskWebhookTrigger');
		expect(
			subtitleFor(webhook.subtitle, { events: ['payables:created', 'settlements:created'] }),
		).toBe('Payable Created, Settlement Created');
		const all = valueOptions(webhook.properties.find((p) => p.name === 'events')!);
		expect(subtitleFor(webhook.subtitle, { events: all.map((e) => e.value) })).toBe(
			all.map((e) => e.name).join(', '),
		);
		expect(subtitleFor(webhook.subtitle, { events: ['payables:created', 'later:event'] })).toBe(
			'Payable Created, later:event',
		);
		expect(subtitleFor(webhook.subtitle, { events: '={{ $json.events }}' })).toBe(
			'={{ $json.events }}',
		);
	});

	test('the trigger event parameters are named "Trigger On"', () => {
		const events = [
			nodeOf('spendeskTrigger').properties.find((p) => p.name === 'event'),
			nodeOf('spendeskWebhookTrigger').properties.find((p) => p.name === 'events'),
		];
		expect(events.map((p) => p?.displayName)).toEqual(['Trigger On', 'Trigger On']);
	});
});

/** The source of every file under `dir` ending in .ts. */
function sources(dir: string): Array<{ file: string; text: string }> {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith('.ts'))
		.map((name) => ({
			file: path.relative(ROOT, path.join(dir, name)),
			text: readFileSync(path.join(dir, name), 'utf8'),
		}));
}

/** The text of the call opening at `start` (at its "("), strings and templates skipped over. */
function callText(text: string, start: number): string {
	let depth = 0;
	let quote: string | undefined;
	for (let i = start; i < text.length; i++) {
		const c = text[i];
		if (quote) {
			if (c === '\\') i++;
			else if (c === quote) quote = undefined;
			continue;
		}
		if (c === "'" || c === '"' || c === '`') quote = c;
		else if (c === '(') depth++;
		else if (c === ')' && --depth === 0) return text.slice(start, i + 1);
	}
	return text.slice(start);
}

test('every NodeOperationError and NodeApiError the package raises has a description', () => {
	const files = [...sources(path.join(ROOT, 'nodes')), ...sources(path.join(ROOT, 'credentials'))];
	const raised = (pattern: RegExp) =>
		files.flatMap(({ file, text }) =>
			[...text.matchAll(pattern)].map((match) => ({
				where: `${file}:${text.slice(0, match.index).split('\n').length}`,
				call: callText(text, (match.index ?? 0) + match[0].length - 1),
			})),
		);
	const calls = raised(/new (NodeOperationError|NodeApiError)\(/g);
	// The operations' error builders (actions/errorItem.ts itemError, actions/readers.ts fail)
	// take the description as their last argument: a call of theirs must not leave it empty.
	const built = raised(/(?<!function )\b(itemError|fail)\(/g);
	expect(calls.length + built.length).toBeGreaterThan(50);
	expect(
		built.filter(({ call }) => /,\s*(''|""|``)\s*,?\s*\)$/.test(call)).map(({ where }) => where),
	).toEqual([]);
	// An error wrapping another one keeps that one's description: `new NodeOperationError(node,
	// error, …)` and `new NodeApiError(node, error as JsonObject, …)`.
	const wrapping = /^\(\s*[\w.]+(\(\))?,\s*(error|err|cause|failure|outcome\.error)\b/;
	const bare = calls.filter(({ call }) => !/\bdescription\b/.test(call) && !wrapping.test(call));
	expect(bare.map(({ where, call }) => `${where}: ${call.slice(0, 120)}`)).toEqual([]);
});
