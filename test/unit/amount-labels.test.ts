/**
 * The editor's lists show an amount, sent in the currency's minor unit
 * (docs/api.md#response-shapes), in major units with its currency first.
 */
import { minorAmountText } from '../../nodes/Spendesk/methods/amounts';

describe('amounts in the editor lists (docs/api.md#response-shapes)', () => {
	test.each([
		[132_640, 'EUR', 'EUR 1,326.40'],
		[-1_500, 'USD', 'USD -15.00'],
		[5, 'GBP', 'GBP 0.05'],
		[1_326, 'JPY', 'JPY 1,326'],
		[1_326, 'KWD', 'KWD 1.326'],
		[132_640, 'eur', 'EUR 1,326.40'],
		[132_640, undefined, '1,326.40'],
		[132_640, 'not a code', '1,326.40'],
	])('%p %p is shown as %p', (amount, currency, shown) => {
		expect(minorAmountText(amount, currency)).toBe(shown);
	});

	test.each([
		[120_050, 'EUR', 2, 'EUR 1,200.50'],
		[120_050, 'EUR', 0, 'EUR 120,050'],
		[1_326, 'JPY', 2, 'JPY 13.26'],
		[120_050, 'EUR', 'two', 'EUR 1,200.50'],
		[120_050, 'EUR', 11, 'EUR 1,200.50'],
	])(
		"%p %p with the record's precision %p is shown as %p",
		(amount, currency, precision, shown) => {
			expect(minorAmountText(amount, currency, precision)).toBe(shown);
		},
	);

	test.each([[1326.4], ['132640'], [undefined], [Number.NaN]])(
		'%p is no whole amount of minor units: nothing is shown',
		(amount) => {
			expect(minorAmountText(amount, 'EUR')).toBe('');
		},
	);
});
