/**
 * Shared helpers for the values tests compare and the parameters they build: JSON round trips,
 * item ids, resource locator parameters. No import of the package's code, so the e2e tests can
 * use them too.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/**
 * A JSON round trip: the value as the node receives it over HTTP. Typed as a list of JSON
 * objects unless told otherwise (`plain<IDataObject>(one)`).
 */
export const plain = <T = IDataObject[]>(value: unknown): T =>
	JSON.parse(JSON.stringify(value)) as T;

/** The `id` of each item, in order. */
export const ids = (items: ReadonlyArray<{ id?: unknown }>) => items.map((item) => item.id);

/** A resource locator parameter in "By ID" mode. */
export const locatorById = (value: string) => ({ __rl: true, mode: 'id', value });

/** A resource locator parameter in "From List" mode (the value the editor stores). */
export const locatorFromList = (value: string) => ({ __rl: true, mode: 'list', value });

/**
 * The node's One Company choice: `companies: 'one'` and the company, as an ID text or a
 * resource locator parameter. Without one (or '') for a company-level credential, which
 * names its own company.
 */
export const oneCompany = (company: string | ReturnType<typeof locatorById> = '') => ({
	companies: 'one',
	company,
});

/** An input item holding a small PDF in its `data` binary property: the file of an upload. */
export const PDF_ITEM: INodeExecutionData = {
	json: {},
	binary: {
		data: {
			data: Buffer.from('%PDF-1.4 receipt').toString('base64'),
			mimeType: 'application/pdf',
			fileName: 'receipt.pdf',
			fileExtension: 'pdf',
		},
	},
};
