/**
 * docs/api.md labels each fact with its source (docs/api.md#sources): the specification, vendor
 * documentation (the portal, the older OpenAPI document), public client code, an integration
 * platform's configuration or listing, or decided here. This test reads the label docs/api.md
 * gives the facts where the sources were once misread (the second reading of the public
 * material) and checks it against where each fact really comes from; the endpoint
 * catalogue's `source` texts (docs/api.md#endpoints) are read the same way.
 *
 * The label of a fact is the nearest label before it in its paragraph, list item or table row
 * (an italic `*Source: …*`, `*Decided here: …*` or `*Specification:*`, or a parenthesis naming a
 * source), or the Source cell of its table row; else, for a list item, the last label of the
 * paragraph that opens the list ("… (label):"); else the label that opens its section (or the
 * section above).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENDPOINTS } from '../../nodes/Spendesk/transport/endpoints';
import type { EndpointName } from '../../nodes/Spendesk/transport/endpoints';
import { SOURCE_WORDS } from '../schemas';

const API_MD = readFileSync(path.resolve(__dirname, '../../docs/api.md'), 'utf8');

type Source = 'specification' | 'vendor' | 'client' | 'platform' | 'decided';

/** How a label names each source. */
const SOURCE_PATTERNS: Record<Source, RegExp> = {
	specification: /\bspecification\b/i,
	vendor:
		/vendor documentation|\bdocumented\b|developer portal|\bportal\b|OpenAPI document|older document|vendor'?s? (guide|changelog|scope)|webhooks guide|snapshots guide/i,
	client: /public client|production client|sandbox client/i,
	platform: /integration platform/i,
	decided: /decided here/i,
};

/** The sources a label names ("not decided here" and "not documented" name none). */
export function sourcesOf(label: string): Source[] {
	const text = label.replace(
		/not decided here|not documented|undocumented|no public document/gi,
		'',
	);
	return (Object.keys(SOURCE_PATTERNS) as Source[]).filter((s) => SOURCE_PATTERNS[s].test(text));
}

const MENTIONS_SOURCE =
	/specification|documented|documentation|portal|OpenAPI document|older document|public client|production client|sandbox client|integration platform|decided here|vendor'?s? (guide|changelog)/i;

interface Marker {
	at: number;
	end: number;
	text: string;
}

/** The labels in a block of text: italic spans, and parentheses outside them, that name a source. */
function markers(block: string): Marker[] {
	const italic: Marker[] = [];
	for (const m of block.matchAll(/(?<!\*)\*(?![*\s])([^*]+?)(?<![\s*])\*(?!\*)/g))
		if (MENTIONS_SOURCE.test(m[1]))
			italic.push({ at: m.index, end: m.index + m[0].length, text: m[1] });
	const inItalic = (at: number) => italic.some((m) => m.at < at && at < m.end);
	const found = [...italic];
	for (const m of block.matchAll(/\(([^()]*)\)/g))
		if (MENTIONS_SOURCE.test(m[1]) && !inItalic(m.index))
			found.push({ at: m.index, end: m.index + m[0].length, text: m[1] });
	return found.sort((a, b) => a.at - b.at);
}

interface Section {
	title: string;
	level: number;
	blocks: string[];
	parent?: Section;
}

/** The sections of a Markdown document, each as its blocks: paragraphs, list items, table rows. */
export function sectionsOf(markdown: string): Section[] {
	const sections: Section[] = [];
	let current: Section = { title: '', level: 1, blocks: [] };
	let block: string[] = [];
	const flush = () => {
		if (block.length) current.blocks.push(block.join(' ').replace(/\s+/g, ' '));
		block = [];
	};
	for (const line of markdown.split('\n')) {
		const heading = /^(#{1,4}) (.+)$/.exec(line);
		if (heading) {
			flush();
			const level = heading[1].length;
			let parent: Section | undefined = current;
			while (parent && parent.level >= level) parent = parent.parent;
			current = { title: heading[2].trim(), level, blocks: [], parent };
			sections.push(current);
		} else if (!line.trim()) flush();
		else if (/^(- |\d+\. |\|)/.test(line)) {
			flush();
			block.push(line);
		} else block.push(line);
	}
	flush();
	return sections;
}

/** The label that opens a section (its first block, when that starts with a label), or its parent's. */
function sectionLabel(section: Section | undefined): string {
	for (let s = section; s; s = s.parent) {
		const first = s.blocks[0];
		const opening = first ? markers(first).find((m) => m.at === 0) : undefined;
		if (opening) return opening.text;
	}
	return '';
}

/** The Source cell of a table row, when the table has a Source column. */
function sourceCell(section: Section, row: string): string | undefined {
	const rows = section.blocks.filter((b) => b.startsWith('|'));
	const index = rows.indexOf(row);
	const header = rows
		.slice(0, index + 1)
		.reverse()
		.find((r, i, above) => above[i - 1]?.startsWith('|---') ?? false);
	const cells = (r: string) => r.split('|').slice(1, -1);
	return header && cells(header).at(-1)?.trim() === 'Source' ? cells(row).at(-1) : undefined;
}

/** The label docs give the fact `anchor` in section `title`: the one block holding it must exist. */
export function labelOf(markdown: string, title: string, anchor: RegExp): string {
	const section = sectionsOf(markdown).find((s) => s.title === title);
	if (!section) throw new Error(`no section "${title}"`);
	const hits = section.blocks.filter((b) => anchor.test(b));
	if (hits.length !== 1)
		throw new Error(`${hits.length} blocks of "${title}" hold ${String(anchor)}, not one`);
	const [block] = hits;
	const at = anchor.exec(block)!.index;
	const cell = block.startsWith('|') ? sourceCell(section, block) : undefined;
	if (cell !== undefined) return cell;
	const before = markers(block).filter((m) => m.at <= at);
	if (before.length) return before[before.length - 1].text;
	return listLabel(section, block) ?? sectionLabel(section);
}

const isListItem = (block: string) => /^(- |\d+\. )/.test(block);

/** A list item's label from the paragraph that opens its list ("… (label):"), when it has one. */
function listLabel(section: Section, item: string): string | undefined {
	if (!isListItem(item)) return undefined;
	let i = section.blocks.indexOf(item);
	while (i > 0 && isListItem(section.blocks[i])) i--;
	const intro = section.blocks[i];
	if (isListItem(intro) || !/:\**$/.test(intro.trimEnd())) return undefined;
	return markers(intro).at(-1)?.text;
}

/** The parts of a text apart by `; ` outside parentheses. */
function topLevel(text: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '(') depth++;
		else if (text[i] === ')') depth--;
		else if (depth === 0 && text.startsWith('; ', i)) {
			parts.push(text.slice(start, i));
			start = i + 2;
		}
	}
	return [...parts, text.slice(start)];
}

/**
 * The label a catalogue `source` gives the facts named `about`: the `facts: label` segment
 * (segments apart by `;`) whose facts mention it, without the notes in parentheses.
 */
export function entryLabel(source: string, about: RegExp): string {
	const segments = topLevel(source).map((s) => s.replace(/\s*\(#[a-z-]+\)\.?$|\.$/g, ''));
	const hit = segments.find((s) => about.test(s.split(/:\s/)[0]));
	if (!hit) throw new Error(`no segment of "${source}" is about ${String(about)}`);
	// A parenthesis after a label is a note on it (what the older document has instead).
	return hit
		.split(/:\s/)
		.slice(1)
		.join(': ')
		.replace(/\s*\([^()]*\)/g, '');
}

interface Expectation {
	/** The sources the label must name. */
	names: Source[];
	/** The sources it must not name. */
	not: Source[];
}

interface ProseFact extends Expectation {
	fact: string;
	section: string;
	anchor: RegExp;
}

interface EntryFact extends Expectation {
	fact: string;
	entry: EndpointName;
	about: RegExp;
}

/** The facts of the second reading, and those the audit of every label found, by section. */
const PROSE: ProseFact[] = [
	{
		fact: 'organisation-level OAuth2 consent',
		section: 'The documented contract',
		anchor: /Organisation-level consent is allowed/,
		names: ['specification'],
		not: ['vendor', 'decided'],
	},
	{
		fact: 'a form body on a token call is a 400 (the simulator)',
		section: 'The documented contract',
		anchor: /a form body on either token call is a 400/,
		names: ['decided'],
		not: ['vendor', 'specification'],
	},
	{
		fact: "what Spendesk answers n8n's form-encoded token calls",
		section: 'The OAuth2 credential',
		anchor: /answers a form-encoded body/,
		names: ['decided'],
		not: ['vendor'],
	},
	{
		fact: 'the OAuth2 contract: its sources',
		section: 'OAuth2',
		anchor: /is for \*\*partner apps\*\*/,
		names: ['vendor', 'platform'],
		not: [],
	},
	{
		fact: '`/v1/wallet-summary` (the shape row of Response shapes)',
		section: 'Response shapes',
		anchor: /^\| Wallet summary/,
		names: ['vendor', 'specification'],
		not: [],
	},
	{
		fact: 'Wallet Summary → Get on `/v1` in the documented profile',
		section: 'The documented profile',
		anchor: /Wallet Summary → Get/,
		names: ['specification'],
		not: ['vendor'],
	},
	{
		fact: "journal templates' items",
		section: 'Journal templates',
		anchor: /`\{id, name\}` each/,
		names: ['decided'],
		not: ['vendor', 'client'],
	},
	{
		fact: "journal templates' scope",
		section: 'Journal templates',
		anchor: /scope `experimental:accounting-export:read`/,
		names: ['decided'],
		not: ['vendor', 'client'],
	},
	{
		fact: "the search's bookkeeping words (three, not the six states)",
		section: 'Body-cursor lists',
		anchor: /`toPrepare`, `toExport`,\s+`exported`\. Get a payable/,
		names: ['client'],
		not: ['vendor', 'decided'],
	},
	{
		fact: "the six states are the payable's (the older document), not the search's",
		section: 'Filters',
		anchor: /`created`, `prepared` \(enriched/,
		names: ['vendor'],
		not: ['decided', 'client'],
	},
	{
		fact: 'payable types',
		section: 'Payables',
		anchor: /`expenseClaim`, `invoicePurchase`/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'the Get-payable line shape',
		section: 'Payables',
		anchor: /`\{expenseAccount: \{id, code, description\}/,
		names: ['vendor', 'client'],
		not: ['decided'],
	},
	{
		fact: 'receipt MIME types',
		section: 'Receipt upload',
		anchor: /PDF, JPEG and PNG/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'the receipt size limit',
		section: 'Receipt upload',
		anchor: /50 MB/,
		names: ['decided'],
		not: ['vendor', 'client'],
	},
	{
		fact: 'the purchase-order create body',
		section: 'Purchase orders',
		anchor: /exactly one of `supplierId` and `supplierName`/,
		names: ['client'],
		not: ['decided'],
	},
	{
		fact: 'the attachment items of the older document',
		section: 'Files',
		anchor: /each attachment is `\{mimeType,/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'a `pageSize` above 30 is a 400',
		section: 'Page lists',
		anchor: /a `pageSize` above the maximum is a 400/,
		names: ['decided'],
		not: ['specification', 'vendor'],
	},
	{
		fact: 'the v1 analytical fields item shape',
		section: 'The documented profile',
		anchor: /items\s+`\{id, name, isArchived\}`/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'payable accounting: 1 to 100 lines',
		section: 'Payable accounting',
		anchor: /1 to 100 lines/,
		names: ['decided'],
		not: ['vendor', 'client'],
	},
	{
		fact: 'webhook instances: 50 per company',
		section: 'Webhooks',
		anchor: /50 instances per company/,
		names: ['decided'],
		not: ['vendor'],
	},
];

/** The catalogue's sources (docs/api.md#endpoints). */
const ENTRIES: EntryFact[] = [
	{
		fact: 'the wallet summary path',
		entry: 'walletSummary',
		about: /^Path/,
		names: ['specification'],
		not: ['vendor'],
	},
	{
		fact: "journal templates' path",
		entry: 'listJournalTemplates',
		about: /^Path/,
		names: ['client'],
		not: ['vendor'],
	},
	{
		fact: "journal templates' items and scope",
		entry: 'listJournalTemplates',
		about: /items/,
		names: ['decided'],
		not: ['vendor', 'client'],
	},
	{
		fact: 'the v2 analytical fields: cursor style',
		entry: 'listAnalyticalFields',
		about: /cursor style/,
		names: ['decided'],
		not: ['specification'],
	},
	{
		fact: 'the v1 analytical fields: item shape',
		entry: 'listAnalyticalFieldsV1',
		about: /item shape/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'the v1 analytical fields: path',
		entry: 'listAnalyticalFieldsV1',
		about: /^Path/,
		names: ['client'],
		not: ['vendor'],
	},
	{
		fact: 'bank fees: page style and filters',
		entry: 'listBankFees',
		about: /page style/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'bank fees: which scope (a decision from the scope list)',
		entry: 'listBankFees',
		about: /scope/,
		names: ['decided'],
		not: [],
	},
	{
		fact: 'wallet loads: page style and filters',
		entry: 'listWalletLoads',
		about: /page style/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'users: page style',
		entry: 'listUsers',
		about: /page style/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'the receipt upload: file types',
		entry: 'startPayableAttachmentUpload',
		about: /file types/,
		names: ['vendor'],
		not: ['decided'],
	},
	{
		fact: 'the purchase-order create body',
		entry: 'createPurchaseOrder',
		about: /body/,
		names: ['client'],
		not: ['decided'],
	},
];

/** What is wrong with a label, or nothing. */
function verdict(label: string, { names, not }: Expectation): string | undefined {
	const got = sourcesOf(label);
	const missing = names.filter((s) => !got.includes(s));
	const wrong = not.filter((s) => got.includes(s));
	if (!missing.length && !wrong.length) return undefined;
	return `labelled "${label.trim()}" (${got.join(', ') || 'no source'})${missing.length ? `; should name ${missing.join(', ')}` : ''}${wrong.length ? `; must not name ${wrong.join(', ')}` : ''}`;
}

describe('the labels of docs/api.md (docs/api.md#sources)', () => {
	test.each(PROSE.map((f) => [f.fact, f]))('%s', (_fact, f) => {
		expect(verdict(labelOf(API_MD, f.section, f.anchor), f)).toBeUndefined();
	});

	test.each(ENTRIES.map((f) => [`catalogue ${f.entry}: ${f.fact}`, f]))('%s', (_fact, f) => {
		expect(verdict(entryLabel(ENDPOINTS[f.entry].source, f.about), f)).toBeUndefined();
	});

	test('no label calls an integration platform "the vendor"', () => {
		expect(API_MD.match(/vendor listings?/gi) ?? []).toEqual([]);
		const sources = Object.values(ENDPOINTS).map((e) => e.source);
		expect(sources.filter((s) => /vendor listings?/i.test(s))).toEqual([]);
	});

	test('#sources names every source the schemas cite, in their words', () => {
		const sources = sectionsOf(API_MD).find((s) => s.title === 'Sources')!;
		const text = sources.blocks.join('\n');
		expect(SOURCE_WORDS.filter((words) => !text.includes(words))).toEqual([]);
	});
});

describe('the label reader (it can fail)', () => {
	const SAMPLE = [
		'## A',
		'',
		'*Source: the specification.* Pages hold 30.',
		'',
		'- **Types** (documented: the portal): a, b.',
		'- *Decided here:* PDF only. The portal says 10 MB (vendor documentation).',
		'',
		'**The body** (public client code, the sandbox run; not decided here):',
		'',
		'- `userId`;',
		'- `amount`.',
		'',
		'| Shape | Source |',
		'|---|---|',
		'| Wallet (`/v1/wallet`) | older OpenAPI document |',
		'',
		'### B',
		'',
		'Nothing marked here.',
	].join('\n');

	test('the nearest label before the fact, else the Source cell, else the paragraph opening its list, else its section', () => {
		expect(sourcesOf(labelOf(SAMPLE, 'A', /Pages hold/))).toEqual(['specification']);
		expect(sourcesOf(labelOf(SAMPLE, 'A', /a, b/))).toEqual(['vendor']);
		expect(sourcesOf(labelOf(SAMPLE, 'A', /PDF only/))).toEqual(['decided']);
		expect(sourcesOf(labelOf(SAMPLE, 'A', /10 MB/))).toEqual(['decided']);
		expect(sourcesOf(labelOf(SAMPLE, 'A', /^\| Wallet/))).toEqual(['vendor']);
		expect(sourcesOf(labelOf(SAMPLE, 'B', /Nothing/))).toEqual(['specification']);
		expect(sourcesOf(labelOf(SAMPLE, 'A', /`amount`/))).toEqual(['client']);
	});

	test('a wrong label is reported; a fact found twice or nowhere is an error', () => {
		expect(verdict(labelOf(SAMPLE, 'A', /PDF only/), { names: ['vendor'], not: ['decided'] })).toBe(
			'labelled "Decided here:" (decided); should name vendor; must not name decided',
		);
		expect(() => labelOf(SAMPLE, 'A', /MB|30/)).toThrow('2 blocks');
		expect(() => labelOf(SAMPLE, 'B', /PDF/)).toThrow('0 blocks');
		expect(entryLabel('Path: the specification; scope: decided here.', /scope/)).toBe(
			'decided here',
		);
		expect(
			entryLabel(
				'Body (a; b): public client code (the document: c); answer: decided here.',
				/Body/,
			),
		).toBe('public client code');
	});
});
