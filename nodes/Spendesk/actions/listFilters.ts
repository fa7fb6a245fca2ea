/**
 * The fields of the lists' Filters and Sort (docs/api.md#filters); the collection itself:
 * sharedParams.filtersCollection; reading them: readers.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

export function dateFilter(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	return { displayName, name, type: 'dateTime', default: '', description };
}

/** A text field (a filter's empty: not filtered). */
export function textField(
	displayName: string,
	name: string,
	placeholder: string,
	description: string,
): INodeProperties {
	return { displayName, name, type: 'string', default: '', placeholder, description };
}

/** The one sort shape of the node: a Sort collection holding one rule (a field, then Direction). */
export function sortCollection(description: string, rule: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		placeholder: 'Add Sort Rule',
		default: {},
		description,
		options: [{ displayName: 'Sort Rule', name: 'rule', values: rule }],
	};
}

/** A sort rule's Direction, oldest first unless the caller sets another default. */
export function sortDirection(records: string): INodeProperties {
	return {
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: [
			{ name: 'Ascending', value: 'asc', description: 'Oldest first' },
			{ name: 'Descending', value: 'desc', description: 'Newest first' },
		],
		default: 'asc',
		description: `Whether the oldest or the newest ${records} come first`,
	};
}
