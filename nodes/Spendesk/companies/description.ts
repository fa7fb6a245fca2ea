/** The company selector of the node and of the trigger: which companies a run acts on. */
import type { INodeProperties } from 'n8n-workflow';

/** One company: from the list (searchable) or by ID. */
const companyLocator: INodeProperties = {
	displayName: 'Company',
	name: 'company',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'The Spendesk company (legal entity) to act on. Required with organisation-level credentials; leave empty with a company-level credential to use its own company.',
	displayOptions: { show: { companies: ['one'] } },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchCompanies', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 4f7d1c2e-…',
			validation: [
				{
					type: 'regex',
					// Empty is allowed: a company-level credential then acts on its own company.
					properties: {
						regex: '^(?!(\\.|%2[eE])(\\.|%2[eE])?$)[^\\s/\\\\?#]{0,128}$',
						errorMessage:
							'Enter one company ID (no spaces, slashes, "?" or "#", not "." or ".."), or leave it empty to use the company of a company-level credential',
					},
				},
			],
		},
	],
};

/** Which items carry their company is said once per node (Add Company Fields, Companies, Trigger On). */
const EVERY_COMPANY = 'Every company the credential reaches';

/** The node's reads: one company, or every company the credential reaches. */
export const nodeCompanyProperties: INodeProperties[] = [
	{
		displayName: 'Companies',
		name: 'companies',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'All Companies', value: 'all', description: EVERY_COMPANY },
			{ name: 'One Company', value: 'one', description: 'The company chosen below' },
		],
		default: 'one',
	},
	companyLocator,
	{
		displayName: 'Add Company Fields',
		name: 'addCompanyFields',
		type: 'boolean',
		default: true,
		description:
			'Whether to add companyId and companyName to each item, to tell the companies apart',
		displayOptions: { show: { companies: ['all'] } },
	},
];

/** The node's writes: the Company field alone, so a write never runs once per company by mistake. */
export const nodeWriteCompanyProperties: INodeProperties[] = [
	{ ...companyLocator, displayOptions: undefined },
];

/** A trigger's selector: one company, several by ID, or all; `what` starts the workflow. */
function triggerSelector(
	what: 'invoices' | 'events',
	addedLater: string,
	description?: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Companies',
			name: 'companies',
			type: 'options',
			noDataExpression: true,
			...(description ? { description } : {}),
			options: [
				{
					name: 'All Companies',
					value: 'all',
					description: `${EVERY_COMPANY}. Companies added later are included ${addedLater}.`,
				},
				{ name: 'One Company', value: 'one', description: 'The company chosen below' },
				{ name: 'Several Companies', value: 'several', description: 'The companies chosen below' },
			],
			default: 'one',
		},
		{
			...companyLocator,
			description: `The company whose ${what} start the workflow. Required with organisation-level credentials; leave empty with a company-level credential to use its own company.`,
		},
		{
			displayName: 'Company Names or IDs',
			name: 'companyIds',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getCompanies' },
			default: [],
			description: `Companies whose ${what} start the workflow. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
			displayOptions: { show: { companies: ['several'] } },
		},
	];
}

export const triggerCompanyProperties = triggerSelector(
	'invoices',
	'from the next poll',
	'With All or Several Companies, each item gets its companyId and companyName (always)',
);

/** The Webhook Trigger: instances are registered at activation; its events carry their companyId. */
export const webhookCompanyProperties = triggerSelector(
	'events',
	'when the workflow is activated again',
);
