import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

/** The one way to reword a caught error: an API error stays a NodeApiError (response, HTTP code). */
export function restated(
	node: INode,
	error: unknown,
	change: { message: string; description?: string; itemIndex?: number; response?: JsonObject },
): NodeApiError | NodeOperationError {
	const { message, description, itemIndex } = change;
	if (error instanceof NodeApiError) {
		const original = (error.errorResponse ?? {}) as JsonObject;
		const response = change.response ? { ...original, ...change.response } : original;
		return new NodeApiError(node, response, {
			message,
			description,
			httpCode: error.httpCode ?? undefined,
			itemIndex,
		});
	}
	return new NodeOperationError(node, message, { description, itemIndex });
}
