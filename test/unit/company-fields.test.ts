/**
 * Which items carry their company is said once per node, where the panel decides it (issue 45):
 * the node tags the items of All Companies unless Add Company Fields is off, so only that switch
 * says it; the polling trigger always tags the items of All and Several Companies (no switch),
 * so its Companies field says it; every event of the Webhook Trigger carries its companyId, so
 * Trigger On says it. The behaviour itself: node-fanout.test.ts (the switch),
 * trigger-new-companies.test.ts and webhook-trigger.test.ts.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { SpendeskWebhookTrigger } from '../../nodes/Spendesk/SpendeskWebhookTrigger.node';

/** Every text of a description the panel shows (parameters, options, hints), by where it is. */
function texts(description: INodeTypeDescription): Array<{ where: string; text: string }> {
	const out: Array<{ where: string; text: string }> = [];
	const walk = (properties: readonly INodeProperties[] | undefined, at: string) => {
		for (const property of properties ?? []) {
			const where = `${at}${property.displayName}`;
			for (const text of [property.description, property.hint]) if (text) out.push({ where, text });
			for (const option of property.options ?? []) {
				if ('values' in option) walk(option.values as INodeProperties[], `${where} > `);
				else if ('displayName' in option) walk([option as INodeProperties], `${where} > `);
				else if (option.description)
					out.push({ where: `${where} > ${option.name}`, text: option.description });
			}
		}
	};
	walk(description.properties, '');
	return out;
}

/** Where a description says that items carry their company. */
const sayingIt = (description: INodeTypeDescription) => [
	...new Set(
		texts(description)
			.filter(({ text }) => /\bcompanyId\b/.test(text) && /\beach item\b|\bcarries\b/.test(text))
			.map(({ where }) => where),
	),
];

describe('which items carry their company is said once per node', () => {
	test('the node: by Add Company Fields only', () => {
		expect(sayingIt(new Spendesk().description)).toEqual(['Add Company Fields']);
	});

	test('the polling trigger: by its Companies field only', () => {
		expect(sayingIt(new SpendeskTrigger().description)).toEqual(['Companies']);
	});

	test('the Webhook Trigger: by Trigger On only', () => {
		expect(sayingIt(new SpendeskWebhookTrigger().description)).toEqual(['Trigger On']);
	});
});
