/**
 * Runs the chosen operation for every input item and every company it targets: companies
 * run concurrently (the transport keeps requests within the in-flight cap), one failing
 * company does not lose the others, and every output item is paired with its input item.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';
import { companyProperties } from './common';
import { targetCompanies } from './companies';
import type { CompanyTarget } from './companies';
import { RESOURCES } from './resources';
import type { SpendeskOperation } from './types';

function findOperation(resource: string, operation: string): SpendeskOperation | undefined {
	return RESOURCES.find((r) => r.value === resource)?.operations.find((o) => o.value === operation);
}

/** The node's parameters after Authentication: resource, operations, company selection, operation fields. */
export function operationProperties(): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: RESOURCES.map((r) => ({ name: r.name, value: r.value, description: r.description })),
			default: 'invoice',
		},
	];
	for (const resource of RESOURCES) {
		// The default is the resource's first operation; the rule cannot see it in generated objects.
		// eslint-disable-next-line n8n-nodes-base/node-param-default-missing
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			options: resource.operations.map((o) => ({ name: o.option.name, value: o.value, action: o.option.action, description: o.option.description })),
			default: resource.operations[0].value,
		});
	}
	const scoped = RESOURCES.filter((r) => r.operations.some((o) => o.companyScoped)).map((r) => r.value);
	for (const p of companyProperties) {
		properties.push({ ...p, displayOptions: { show: { ...p.displayOptions?.show, resource: scoped } } });
	}
	properties.push({
		displayName: 'Add Company Fields',
		name: 'addCompanyFields',
		type: 'boolean',
		default: true,
		description: 'Whether to add companyId and companyName to every item when running on all companies',
		displayOptions: { show: { resource: scoped, companyScope: ['all'] } },
	});
	for (const resource of RESOURCES) {
		for (const operation of resource.operations) {
			for (const p of operation.properties) {
				properties.push({
					...p,
					displayOptions: {
						...p.displayOptions,
						show: { ...p.displayOptions?.show, resource: [resource.value], operation: [operation.value] },
					},
				});
			}
		}
	}
	return properties;
}

function companyLabel(target: CompanyTarget): string {
	if (!target.id) return 'the credential\'s own company';
	return target.name ? `company "${target.name}" (${target.id})` : `company "${target.id}"`;
}

/** An error of one company among several, named after it. */
function companyError(ctx: IExecuteFunctions, error: unknown, target: CompanyTarget, itemIndex: number): NodeApiError | NodeOperationError {
	const e = error as { message?: string; description?: string | null; httpCode?: string | null };
	const message = `${companyLabel(target)}: ${e.message ?? String(error)}`;
	const prefixed = message.charAt(0).toUpperCase() + message.slice(1);
	if (error instanceof NodeApiError) {
		const response: JsonObject = { companyId: target.id ?? null, httpCode: e.httpCode ?? null };
		return new NodeApiError(ctx.getNode(), response, {
			message: prefixed,
			description: e.description ?? undefined,
			httpCode: e.httpCode ?? undefined,
			itemIndex,
		});
	}
	return new NodeOperationError(ctx.getNode(), prefixed, { description: e.description ?? undefined, itemIndex });
}

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	let limitReached = false;

	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const resource = this.getNodeParameter('resource', itemIndex) as string;
		const operationName = this.getNodeParameter('operation', itemIndex) as string;
		const operation = findOperation(resource, operationName);
		try {
			if (!operation) {
				throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`, { itemIndex });
			}
			// Parameters are read and checked before the first request, even for All Companies.
			const run = operation.prepare.call(this, itemIndex);
			const { all, targets } = operation.companyScoped ? await targetCompanies(this, itemIndex) : { all: false, targets: [{}] };
			const tag = all && (this.getNodeParameter('addCompanyFields', itemIndex, true) as boolean);
			const results = await Promise.all(
				targets.map(async (target: CompanyTarget) => {
					try {
						return { target, ...(await run(target.id)) };
					} catch (error) {
						return { target, error };
					}
				}),
			);
			for (const result of results) {
				if ('error' in result) {
					const error = all ? companyError(this, result.error, result.target, itemIndex) : result.error;
					if (!this.continueOnFail()) {
						if (error instanceof NodeApiError || error instanceof NodeOperationError) throw error;
						throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
					}
					const e = error as { message?: string; description?: string | null };
					output.push({
						json: {
							error: e.message ?? String(error),
							...(e.description ? { description: e.description } : {}),
							...(result.target.id ? { companyId: result.target.id } : {}),
							...(result.target.name ? { companyName: result.target.name } : {}),
						},
						pairedItem: { item: itemIndex },
					});
					continue;
				}
				if (result.truncated) limitReached = true;
				for (const json of result.items) {
					const tagged: IDataObject = tag ? { ...json, companyId: result.target.id ?? null, companyName: result.target.name ?? null } : json;
					output.push({ json: tagged, pairedItem: { item: itemIndex } });
				}
			}
		} catch (error) {
			if (this.continueOnFail()) {
				const e = error as { message?: string; description?: string | null };
				output.push({
					json: { error: e.message ?? String(error), ...(e.description ? { description: e.description } : {}) },
					pairedItem: { item: itemIndex },
				});
				continue;
			}
			if (error instanceof NodeApiError || error instanceof NodeOperationError) {
				if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
			}
			// Both constructors hand back an existing error of their kind unchanged.
			if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}

	if (limitReached) {
		this.addExecutionHints({
			message: 'Some results were cut off by the Limit. Turn on Return All to get every result.',
			location: 'outputPane',
		});
	}
	return [output];
}
