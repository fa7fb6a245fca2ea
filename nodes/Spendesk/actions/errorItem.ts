/**
 * Continue On Fail: the one shape of an error item, its text redacted once more. With
 * "Continue (using error output)" it carries n8n's own `error` field, which n8n needs to route
 * the item there (n8n-core WorkflowExecute.handleNodeErrorOutput); the message names the company.
 */
import type { IExecuteFunctions, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { CompanyTarget } from '../companies/select';
import { ENDPOINTS } from '../transport/endpoints';
import type { EndpointName } from '../transport/endpoints';
import { redact } from '../transport/errors';

export function errorItem(
	node: INode,
	error: unknown,
	itemIndex: number,
	company?: CompanyTarget,
): INodeExecutionData {
	const e = error as { message?: string; description?: string | null };
	const message = redact(e.message ?? String(error));
	const description = e.description ? redact(e.description) : undefined;
	if (node.onError === 'continueErrorOutput') {
		return {
			json: { error: message },
			// A new error of redacted text only: the original may hold a request or a response.
			error: new NodeOperationError(node, message, { description, itemIndex }),
			pairedItem: { item: itemIndex },
		};
	}
	return {
		json: {
			error: message,
			...(description ? { description } : {}),
			...(company?.id ? { companyId: company.id } : {}),
			...(company?.name ? { companyName: company.name } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}

/** The error of input item `itemIndex`: what went wrong, then what to do (`description`). */
export function itemError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
}

/** The error of a call to `endpoint` that Spendesk answered with `status`, told in the node's words. */
export function apiError(
	ctx: IExecuteFunctions,
	endpoint: EndpointName,
	status: number,
	company: string | undefined,
	itemIndex: number,
	message: string,
	description: string,
): NodeApiError {
	const { method, path } = ENDPOINTS[endpoint];
	return new NodeApiError(
		ctx.getNode(),
		{
			status,
			endpoint: `${method} ${path}`,
			...(company ? { companyId: company } : {}),
		} as JsonObject,
		{ message, description, httpCode: String(status), itemIndex },
	);
}
