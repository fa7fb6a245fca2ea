/**
 * The parameters the editor shows for the Spendesk node (Spendesk.node.ts holds the rest of
 * its description). Resource and Operation lists come from RESOURCES (each resource's Operation
 * parameter is a literal in its index.ts); each operation's own fields are shown for its resource
 * and operation only, with the company fields of the operations that act per company (the
 * Company field alone for operations that write).
 */
import { updateDisplayOptions } from 'n8n-workflow';
import type { INodeProperties } from 'n8n-workflow';
import { nodeCompanyProperties, nodeWriteCompanyProperties } from '../companies/description';
import { RESOURCES } from './resources';
import type { SpendeskOperation, SpendeskResource } from './types';

function resourceProperty(): INodeProperties {
	return {
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
	};
}

/** One Operation list per resource, each a literal in the resource's index.ts. */
function operationProperties(): INodeProperties[] {
	return RESOURCES.map((resource) => resource.operation);
}

/**
 * Resources whose company fields come after some of their operation's own fields, and only
 * when one of these says the call goes to a company: the Custom API Call shows Method, Path and
 * Company Placement first, and no company with Company Placement: None.
 */
const COMPANY_FIELDS_AFTER: Record<string, { after: string; hide: Record<string, string[]> }> = {
	customApiCall: { after: 'companyPlacement', hide: { companyPlacement: ['none'] } },
};

/**
 * The company fields of one resource's operations. Reads offer All Companies (the Companies
 * selector, the Company field for One Company, Add Company Fields); operations that write,
 * and reads of a record only one company holds, run on one company, so they show the Company
 * field alone. An operation whose parameters decide whether it writes shows the fields of
 * reads under the values it reads with (`readsWhen`), the Company field alone otherwise.
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

/** The fields of one operation, shown for its own resource and operation. */
function operationFields(
	resource: SpendeskResource,
	operation: SpendeskOperation,
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: [resource.value], operation: [operation.value] } },
		operation.properties,
	);
}

/** A resource's company fields and operation fields, in the order the editor shows them. */
function resourceFields(resource: SpendeskResource): INodeProperties[] {
	const company = companyProperties(resource);
	const fields = resource.operations.flatMap((operation) => operationFields(resource, operation));
	const after = COMPANY_FIELDS_AFTER[resource.value]?.after;
	const at = after ? fields.findIndex((p) => p.name === after) + 1 : 0;
	return [...fields.slice(0, at), ...company, ...fields.slice(at)];
}

/** The node's parameters after Authentication: resource, operations, then each resource's fields. */
export const versionProperties: INodeProperties[] = [
	resourceProperty(),
	...operationProperties(),
	...RESOURCES.flatMap(resourceFields),
];

/**
 * The node's subtitle: the names of the operation and the resource ("Get Many: Invoice"), looked
 * up in a map built from the Operation lists; a value the map does not know shows as it is.
 */
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
