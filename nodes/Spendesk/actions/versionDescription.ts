/** The editor's parameters but Spendesk.node.ts's: Resource, each Operation list, each operation's fields. */
import { updateDisplayOptions } from 'n8n-workflow';
import type { INodeProperties } from 'n8n-workflow';
import { nodeCompanyProperties, nodeWriteCompanyProperties } from '../companies/description';
import { RESOURCES } from './resources';
import type { SpendeskOperation, SpendeskResource } from './types';

/** The Custom API Call shows its company fields after Company Placement, and none with None. */
const COMPANY_FIELDS_AFTER: Record<string, { after: string; hide: Record<string, string[]> }> = {
	customApiCall: { after: 'companyPlacement', hide: { companyPlacement: ['none'] } },
};

/**
 * The company fields of one resource's operations: reads offer All Companies; writes, and
 * reads of a record one company holds, the Company field alone; `readsWhen` either by values.
 */
function companyProperties(resource: SpendeskResource): INodeProperties[] {
	const perCompany = resource.operations.filter((o) => o.perCompany);
	const oneCompany = (o: SpendeskOperation) => o.write === true || o.oneCompany === true;
	const hide = COMPANY_FIELDS_AFTER[resource.value]?.hide;
	const shown = (
		operations: SpendeskOperation[],
		properties: INodeProperties[],
		when: { show?: Record<string, string[]>; hide?: Record<string, string[]> } = {},
	) =>
		operations.length
			? updateDisplayOptions(
					{
						show: {
							resource: [resource.value],
							operation: operations.map((o) => o.value),
							...when.show,
						},
						...(hide || when.hide ? { hide: { ...hide, ...when.hide } } : {}),
					},
					properties,
				)
			: [];
	const reads = perCompany.filter((o) => !oneCompany(o) && !o.readsWhen);
	const writes = perCompany.filter(oneCompany);
	return [
		...shown(reads, nodeCompanyProperties),
		...shown(writes, nodeWriteCompanyProperties),
		...perCompany
			.filter((o) => !oneCompany(o) && o.readsWhen)
			.flatMap((o) => [
				...shown([o], nodeCompanyProperties, { show: o.readsWhen }),
				...shown([o], nodeWriteCompanyProperties, { hide: o.readsWhen }),
			]),
	];
}

/** A resource's company fields and operation fields, in the order the editor shows them. */
function resourceFields(resource: SpendeskResource): INodeProperties[] {
	const company = companyProperties(resource);
	const fields = resource.operations.flatMap((operation) =>
		updateDisplayOptions(
			{ show: { resource: [resource.value], operation: [operation.value] } },
			operation.properties,
		),
	);
	const after = COMPANY_FIELDS_AFTER[resource.value]?.after;
	const at = after ? fields.findIndex((p) => p.name === after) + 1 : 0;
	return [...fields.slice(0, at), ...company, ...fields.slice(at)];
}

/** The node's parameters after Authentication: resource, operations, then each resource's fields. */
export const versionProperties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		// Sorted by name, whatever order the resources are registered in.
		options: RESOURCES.map((r) => ({
			name: r.name,
			value: r.value,
			description: r.description,
		})).sort((a, b) => a.name.localeCompare(b.name)),
		default: 'invoice',
	},
	...RESOURCES.map((resource) => resource.operation),
	...RESOURCES.flatMap(resourceFields),
];

/** The node's subtitle ("Get Many: Invoice"); a value it does not know shows as it is. */
export function nodeSubtitle(): string {
	const names: Record<string, string> = {};
	for (const resource of RESOURCES) {
		for (const option of resource.operation.options ?? []) {
			if ('value' in option)
				names[`${String(option.value)}:${resource.value}`] = `${option.name}: ${resource.name}`;
		}
	}
	const key = '$parameter["operation"] + ":" + $parameter["resource"]';
	return `={{ (${JSON.stringify(names)})[${key}] || $parameter["operation"] + ": " + $parameter["resource"] }}`;
}
