/**
 * The parameters the editor shows for the Spendesk node (Spendesk.node.ts holds the rest of
 * its description). Resource and Operation lists come from RESOURCES (each resource's Operation parameter is a literal in its index.ts); each operation's own fields are shown
 * for its resource and operation only; the company selector for the resources that act per company
 * (without All Companies for operations that write).
 */
import { updateDisplayOptions } from 'n8n-workflow';
import type { INodeProperties } from 'n8n-workflow';
import { nodeCompanyProperties, nodeWriteCompanyScope } from '../companies/description';
import { RESOURCES } from './resources';

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

/** The fields of every operation, each shown for its own resource and operation. */
function operationFields(): INodeProperties[] {
	return RESOURCES.flatMap((resource) =>
		resource.operations.flatMap((operation) =>
			updateDisplayOptions(
				{ show: { resource: [resource.value], operation: [operation.value] } },
				operation.properties,
			),
		),
	);
}

const perCompanyResources = RESOURCES.filter((r) => r.operations.some((o) => o.perCompany));

/**
 * The company selector: reads offer All Companies; operations that write offer one company
 * only (a Companies choice of their own, shown for them alone).
 */
function companyProperties(): INodeProperties[] {
	const [selector, ...rest] = nodeCompanyProperties;
	const readOnly = perCompanyResources.filter((r) => !r.operations.some((o) => o.write));
	const withWrites = perCompanyResources.filter((r) => r.operations.some((o) => o.write));
	const split = withWrites.flatMap((resource) => {
		const reads = resource.operations.filter((o) => !o.write).map((o) => o.value);
		const writes = resource.operations.filter((o) => o.write).map((o) => o.value);
		return [
			...(reads.length
				? updateDisplayOptions({ show: { resource: [resource.value], operation: reads } }, [
						selector,
					])
				: []),
			...updateDisplayOptions({ show: { resource: [resource.value], operation: writes } }, [
				nodeWriteCompanyScope,
			]),
		];
	});
	return [
		...updateDisplayOptions({ show: { resource: readOnly.map((r) => r.value) } }, [selector]),
		...split,
		...updateDisplayOptions({ show: { resource: perCompanyResources.map((r) => r.value) } }, rest),
	];
}

/** The node's parameters after Authentication: resource, operations, company selection, operation fields. */
export const versionProperties: INodeProperties[] = [
	resourceProperty(),
	...operationProperties(),
	...companyProperties(),
	...operationFields(),
];
