/** Include Archived, sent as `includeArchived=true` (docs/api.md#filters). */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { filtersCollection, readCollection } from '../sharedParams';

export function archivedFilter(what: string): INodeProperties {
	return filtersCollection([
		{
			displayName: 'Include Archived',
			name: 'includeArchived',
			type: 'boolean',
			default: true,
			description: `Whether to list archived ${what} too`,
		},
	]);
}

export function readArchivedFilter(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const filters = readCollection(ctx, 'filters', itemIndex);
	return filters.includeArchived === true ? { includeArchived: 'true' } : {};
}
