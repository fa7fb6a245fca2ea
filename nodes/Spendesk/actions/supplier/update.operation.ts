/** Supplier → Update: changes the fields given of one supplier (PATCH /v1/suppliers/{supplierId}, the documented nested shape). */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { singleObject } from '../../transport/pagination/strategy';
import { callSpendesk } from '../../transport/request';
import type { SingleOperation } from '../types';
import { readRecordId, recordLocator } from '../recordId';
import { readText } from '../writeFields';
import { readSupplierFields, supplierFieldOptions } from './fields';

const ID_HINT =
	'Pick the supplier from the list, or give its ID, usually from an expression such as {{ $json.id }}.';

/** The Update Fields of an item as the PATCH body; nothing to change fails before any request. */
function changesOf(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const fields = ctx.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes = readSupplierFields(ctx, fields, itemIndex, true);
	if ('name' in fields) {
		const name = readText(ctx, fields.name, 'Name', 200, itemIndex);
		if (!name)
			throw new NodeOperationError(ctx.getNode(), "'Name' is empty", {
				description:
					'A supplier keeps a name: enter the new name, or remove Name from Update Fields.',
				itemIndex,
			});
		changes.name = name;
	}
	if (Object.keys(changes).length === 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Nothing to update: add at least one field to Update Fields',
			{ description: 'Choose the fields of the supplier to change.', itemIndex },
		);
	}
	return changes;
}

export const updateSupplier: SingleOperation = {
	value: 'update',
	perCompany: true,
	write: true,
	properties: [
		...recordLocator({
			name: 'supplierId',
			label: 'Supplier',
			description:
				'The supplier to update: pick it from the list, or enter its ID (usually from an expression)',
			placeholder: 'e.g. sup_001_00042',
			searchListMethod: 'searchSuppliers',
		}),
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description: 'The fields to change; a field added and left empty is cleared (except Name)',
			options: [
				...supplierFieldOptions,
				{
					displayName: 'Name',
					name: 'name',
					type: 'string' as const,
					default: '',
					description: 'New name of the supplier',
				},
			].sort((a, b) => a.displayName.localeCompare(b.displayName)),
		},
	],
	prepare(this: IExecuteFunctions, itemIndex: number) {
		const supplierId = readRecordId(this, 'supplierId', 'Supplier ID', itemIndex, ID_HINT);
		const body = changesOf(this, itemIndex);
		return async (company) => {
			const { body: response } = await callSpendesk<IDataObject>(this, 'updateSupplier', {
				company,
				pathParams: { supplierId },
				body,
				itemIndex,
			});
			return { items: [singleObject(response) ?? {}] };
		};
	},
};
