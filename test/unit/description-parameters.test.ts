/**
 * The parameters of the node and both triggers carry no dead weight: none is `hidden` (a value
 * kept out of the editor's sight is a compatibility shim; after 1.0.0 a changed behaviour is
 * a node version, CONTRIBUTING.md "Changing behaviour after 1.0.0: node versions"), and every
 * parameter is read somewhere in the code of `nodes/`. The credentials' hidden token fields are
 * n8n's own mechanism and are not checked here.
 *
 * "Read" is found in the source text: a parameter's name must appear in `nodes/` outside
 * comments, outside its own declaration (`name: '…'`) and the editor's texts, and outside
 * display options. Names that are common words (`id`, `name`, `from`, …) always appear, so the
 * check bites on the specific names, which are most of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodeType } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { SpendeskWebhookTrigger } from '../../nodes/Spendesk/SpendeskWebhookTrigger.node';

const NODES: INodeType[] = [new Spendesk(), new SpendeskTrigger(), new SpendeskWebhookTrigger()];
const NODES_DIR = path.resolve(__dirname, '../../nodes');

interface Found {
	/** e.g. `Spendesk › Options › Sort By`. */
	path: string;
	property: INodeProperties;
}

/** Every parameter of a description, collection and fixedCollection values included. */
function parametersOf(node: INodeType): Found[] {
	const found: Found[] = [];
	const visit = (properties: INodeProperties[], at: string) => {
		for (const property of properties) {
			const here = `${at} › ${property.displayName}`;
			found.push({ path: here, property });
			for (const option of (property.options ?? []) as unknown[]) {
				const entry = option as Partial<INodeProperties> & { values?: INodeProperties[] };
				if (entry.type !== undefined) visit([entry as INodeProperties], here);
				if (Array.isArray(entry.values)) visit(entry.values, `${here} › ${entry.displayName}`);
			}
		}
	};
	visit(node.description.properties, node.description.displayName);
	return found;
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((file) => {
		const full = path.join(dir, file);
		if (statSync(full).isDirectory()) return sourceFiles(full);
		return file.endsWith('.ts') ? [full] : [];
	});
}

const STRING = String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|` + '`(?:[^`\\\\]|\\\\.)*`';

/** The code of `text` where a parameter could be read: comments, declarations and texts taken out. */
function codeOnly(text: string): string {
	return (
		text
			.replace(/\/\*[\s\S]*?\*\//g, '')
			.replace(/^\s*\/\/.*$/gm, '')
			// A parameter's own name, and the texts the editor shows.
			.replace(
				new RegExp(
					String.raw`\b(name|displayName|description|hint|placeholder|action|errorMessage):\s*(${STRING})`,
					'g',
				),
				'',
			)
			// Display options, e.g. `companies: ['all']`: the editor reads them, not the node.
			.replace(/\b\w+: \[(?:'[^']*'|true|false|[\d.]+)(?:, ?(?:'[^']*'|true|false|[\d.]+))*\]/g, '')
	);
}

/** The names of `names` that `code` never mentions as a word. */
function unreadNames(names: string[], code: string): string[] {
	return names.filter((name) => !new RegExp(String.raw`(?<![\w$-])${name}(?![\w$-])`).test(code));
}

const code = codeOnly(
	sourceFiles(NODES_DIR)
		.map((file) => readFileSync(file, 'utf8'))
		.join('\n'),
);

describe('parameters of the node and the triggers', () => {
	test('none is hidden: a behaviour that changes after 1.0.0 is a node version, not a hidden parameter', () => {
		const hidden = NODES.flatMap(parametersOf)
			.filter(({ property }) => property.type === 'hidden')
			.map((found) => found.path);
		expect(hidden).toEqual([]);
	});

	test('every parameter is read by the code of nodes/ (notices aside)', () => {
		const unread = NODES.flatMap(parametersOf)
			.filter(({ property }) => property.type !== 'notice')
			.filter(({ property }) => unreadNames([property.name], code).length > 0)
			.map((found) => `${found.path} (${found.property.name})`);
		expect(unread).toEqual([]);
	});

	test('the check finds a parameter that is only declared, and not one that is read', () => {
		const source = codeOnly(
			[
				'const fields = [',
				"\t{ displayName: 'Kept Only', name: 'keptOnly', type: 'hidden', default: '' },",
				"\t{ displayName: 'Used', name: 'usedField', type: 'string', default: '',",
				"\t\tdescription: 'Not keptOnly either', displayOptions: { show: { keptOnly: ['x'] } } },",
				'];',
				'// keptOnly is read nowhere; usedField is:',
				"const value = ctx.getNodeParameter('usedField', itemIndex);",
			].join('\n'),
		);
		expect(unreadNames(['keptOnly', 'usedField'], source)).toEqual(['keptOnly']);
	});
});
