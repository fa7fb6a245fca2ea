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
	displayOptions: { show: { companyScope: ['one'] } },
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

/**
 * The node: one company, or every company the credential reaches (reads; a write runs per
 * company only when the user picks All Companies). The parameter keeps the name
 * `companyScope` under which saved workflows hold it.
 */
export const nodeCompanyProperties: INodeProperties[] = [
	{
		displayName: 'Companies',
		name: 'companyScope',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'One Company', value: 'one', description: 'Run on the company chosen below' },
			{
				name: 'All Companies',
				value: 'all',
				description:
					'Run on every company the credential reaches and tag each item with companyId and companyName',
			},
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
			'Whether to add companyId and companyName to every item when running on all companies',
		displayOptions: { show: { companyScope: ['all'] } },
	},
];

/** The trigger: one company, several by ID, or all (including companies added later). */
export const triggerCompanyProperties: INodeProperties[] = [
	{
		displayName: 'Companies',
		name: 'companyScope',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'One Company', value: 'one' },
			{ name: 'Several Companies', value: 'several' },
			{
				name: 'All Companies',
				value: 'all',
				description: 'Every company the credential reaches, including companies added later',
			},
		],
		default: 'one',
	},
	companyLocator,
	{
		displayName: 'Company Names or IDs',
		name: 'companyIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getCompanies' },
		default: [],
		description:
			'Companies to watch. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { companyScope: ['several'] } },
	},
];

/**
 * The Webhook Trigger: one company, several by ID, or all. Instances are registered at
 * activation, so All Companies means the companies the credential reaches then.
 */
export const webhookCompanyProperties: INodeProperties[] = triggerCompanyProperties.map(
	(property) =>
		property.name === 'companyScope'
			? {
					...property,
					options: [
						{ name: 'One Company', value: 'one' },
						{ name: 'Several Companies', value: 'several' },
						{
							name: 'All Companies',
							value: 'all',
							description:
								'Every company the credential reaches when the workflow is activated (activate again to include companies added later)',
						},
					],
				}
			: property,
);

/**
 * The node's Companies choice for operations that write: one company only, so a write never
 * runs once per company by mistake (the router refuses All Companies from a saved workflow).
 */
export const nodeWriteCompanyScope: INodeProperties = {
	displayName: 'Companies',
	name: 'companyScope',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'One Company',
			value: 'one',
			description:
				'Write to the company chosen below; this operation runs on one company at a time',
		},
	],
	default: 'one',
};
