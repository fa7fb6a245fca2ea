/**
 * One rule for the end dates of the filters (docs/api.md#filters): a date filter whose label ends
 * in "To" or "Until" includes its day ("on or before this date") and is read as an end date
 * (actions/dates.ts, isEndDateLabel); any other date filter says "after", "before", "from" or
 * "on or after" and is read as it is. Checked here on every date field of every Filters
 * collection of the node's description, so that a new end date cannot be labelled one way and
 * described the other; test/integration/end-dates.test.ts runs each of them through the node and
 * checks what reaches the simulator.
 */
import type { INodeProperties } from 'n8n-workflow';
import { isEndDateLabel } from '../../nodes/Spendesk/actions/dates';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';

interface DateField {
	where: string;
	field: INodeProperties;
}

/** Every dateTime field inside a collection of the node (Filters, Options), with where it is. */
function collectionDates(): DateField[] {
	const found: DateField[] = [];
	for (const property of new Spendesk().description.properties) {
		if (property.type !== 'collection') continue;
		const show = property.displayOptions?.show ?? {};
		const where = `${String(show.resource)} → ${String(show.operation)} › ${property.displayName}`;
		for (const field of (property.options ?? []) as INodeProperties[])
			if (field.type === 'dateTime')
				found.push({ where: `${where} › ${field.displayName}`, field });
	}
	return found;
}

describe('end dates of the filters: one rule on the label (docs/api.md#filters)', () => {
	const dates = collectionDates();

	test('the node has date filters of both kinds', () => {
		expect(dates.filter((d) => isEndDateLabel(d.field.displayName)).length).toBeGreaterThanOrEqual(
			5,
		);
		expect(dates.filter((d) => !isEndDateLabel(d.field.displayName)).length).toBeGreaterThan(5);
	});

	test('a date filter says "on or before" exactly when its label ends in To or Until', () => {
		const wrong = dates
			.filter(
				({ field }) =>
					isEndDateLabel(field.displayName) !== /\bon or before\b/.test(field.description ?? ''),
			)
			.map(({ where, field }) => `${where}: "${field.description}"`);
		expect(wrong).toEqual([]);
	});

	test.each([
		['Until', true],
		['Created To', true],
		['Payable Date To', true],
		['Created Before', false],
		['Before', false],
		['Exported After', false],
		['Payable Date From', false],
		['Tomorrow', false],
	])('the label %s is an end date: %s', (label, expected) => {
		expect(isEndDateLabel(label)).toBe(expected);
	});
});
