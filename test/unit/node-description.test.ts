/**
 * The node's description as n8n's editor reads it, in the spirit of n8n's own
 * ui-verification tests: every resource has operations, operation values are unique in their
 * resource, every parameter has a default, and n8n's injected "Custom API Call" option cannot
 * appear next to the node's own.
 */
import { NodeHelpers } from 'n8n-workflow';
import type {
	INode,
	ICredentialType,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { SpendeskApi } from '../../credentials/SpendeskApi.credentials';
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import { RESOURCES } from '../../nodes/Spendesk/actions/resources';
import { Spendesk } from '../../nodes/Spendesk/Spendesk.node';
import { SpendeskTrigger } from '../../nodes/Spendesk/SpendeskTrigger.node';
import { SpendeskWebhookTrigger } from '../../nodes/Spendesk/SpendeskWebhookTrigger.node';

const node = new Spendesk().description;
const trigger = new SpendeskTrigger().description;
const options = (p: INodeProperties) => (p.options ?? []) as INodePropertyOptions[];
const resources = options(node.properties.find((p) => p.name === 'resource')!).map((o) =>
	String(o.value),
);
const operationLists = node.properties.filter((p) => p.name === 'operation');
const shownFor = (p: INodeProperties, name: string) =>
	(p.displayOptions?.show?.[name] ?? []) as unknown[];

/**
 * n8n's rule (LoadNodesAndCredentials.injectCustomApiCallOptions): a node whose credential
 * supports proxy auth (an `authenticate` block, or extending oAuth2Api) gets a
 * `__CUSTOM_API_CALL__` option appended to its Resource and Operation lists when
 * `defaultVersion` is undefined or equal to `version`.
 */
function n8nWouldInject(description: INodeTypeDescription): boolean {
	const proxyAuth = ([new SpendeskApi(), new SpendeskOAuth2Api()] as ICredentialType[]).some(
		(c) =>
			(c as { authenticate?: unknown }).authenticate !== undefined ||
			(c.extends ?? []).includes('oAuth2Api'),
	);
	return (
		proxyAuth &&
		(description.defaultVersion === undefined || description.defaultVersion === description.version)
	);
}

describe('node description', () => {
	test('version is [1] (an array): n8n does not inject its own Custom API Call into the lists', () => {
		expect(node.version).toEqual([1]);
		expect(node.defaultVersion).toBe(1);
		expect(n8nWouldInject(node)).toBe(false);
		// The same description with a plain number would get the injected option.
		expect(n8nWouldInject({ ...node, version: 1 })).toBe(true);
	});

	test('the node and both triggers declare version [1] with defaultVersion 1, the form a later [1, 1.1] extends', () => {
		for (const description of [node, trigger, new SpendeskWebhookTrigger().description])
			expect({
				name: description.name,
				version: description.version,
				default: description.defaultVersion,
			}).toEqual({
				name: description.name,
				version: [1],
				default: 1,
			});
	});

	test("the recipe of CONTRIBUTING.md for a version 1.1 works with n8n's own resolution: a parameter gated on @version >= 1.1 is left out of version 1 and shown from 1.1", () => {
		const gated: INodeProperties = {
			displayName: 'New In 1.1',
			name: 'newInOnePointOne',
			type: 'boolean',
			default: true,
			displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
		};
		const next = { ...node, version: [1, 1.1], defaultVersion: 1.1 };
		next.properties = [...node.properties, gated];
		const given = { resource: 'invoice', operation: 'getAll' };
		const resolved = (typeVersion: number) =>
			NodeHelpers.getNodeParameters(
				next.properties,
				given,
				true,
				false,
				{ typeVersion, parameters: given } as unknown as INode,
				next,
			) ?? {};
		expect(resolved(1)).not.toHaveProperty('newInOnePointOne');
		expect(resolved(1.1)).toHaveProperty('newInOnePointOne', true);
		expect(resolved(1)).toHaveProperty('resource', 'invoice');
	});

	test('no option anywhere is __CUSTOM_API_CALL__', () => {
		for (const description of [node, trigger]) {
			const values = description.properties.flatMap((p) => options(p).map((o) => o.value));
			expect(values).not.toContain('__CUSTOM_API_CALL__');
		}
	});

	test('every resource has exactly one Operation list, with at least one operation', () => {
		expect(resources.length).toBeGreaterThan(0);
		for (const resource of resources) {
			const lists = operationLists.filter((p) => shownFor(p, 'resource').includes(resource));
			expect(lists).toHaveLength(1);
			expect(options(lists[0]).length).toBeGreaterThan(0);
		}
		expect(operationLists).toHaveLength(resources.length);
	});

	test('operation values are unique within their resource, and each list defaults to one of its values', () => {
		for (const list of operationLists) {
			const values = options(list).map((o) => o.value);
			expect(new Set(values).size).toBe(values.length);
			expect(values).toContain(list.default);
			for (const option of options(list)) expect(option.action).toEqual(expect.any(String));
		}
	});

	test('each written-out Operation list offers exactly the operations the node runs for that resource, sorted by name', () => {
		for (const resource of RESOURCES) {
			const listed = options(resource.operation).map((o) => String(o.value));
			expect({ resource: resource.value, operations: listed.sort() }).toEqual({
				resource: resource.value,
				operations: resource.operations.map((o) => o.value).sort(),
			});
			expect(resource.operation.displayOptions?.show?.resource).toEqual([resource.value]);
			const names = options(resource.operation).map((o) => o.name);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	test('every parameter of the node and the trigger has a default', () => {
		for (const description of [node, trigger]) {
			for (const p of description.properties)
				expect({ name: p.name, hasDefault: 'default' in p && p.default !== undefined }).toEqual({
					name: p.name,
					hasDefault: true,
				});
		}
	});

	test('each operation field is shown for its own resource and operation only', () => {
		const selectors = new Set([
			'authentication',
			'resource',
			'operation',
			'companies',
			'company',
			'addCompanyFields',
		]);
		for (const p of node.properties.filter((q) => !selectors.has(q.name))) {
			const [resource] = shownFor(p, 'resource');
			const operations = shownFor(p, 'operation');
			expect(shownFor(p, 'resource')).toHaveLength(1);
			expect(operations).toHaveLength(1);
			const list = operationLists.find((l) => shownFor(l, 'resource').includes(resource))!;
			expect(options(list).map((o) => o.value)).toContain(operations[0]);
		}
	});

	test('the Limit hint about All Companies shows only with All Companies', () => {
		const limits = node.properties.filter((p) => p.name === 'limit');
		expect(limits.length).toBeGreaterThan(0);
		for (const limit of limits) {
			if (limit.hint) {
				expect(limit.hint).toMatch(/All Companies/);
				expect(shownFor(limit, 'companies')).toEqual(['all']);
			} else {
				expect(limit.displayOptions?.hide?.companies ?? []).toContain('all');
			}
		}
		// Company → Get Many has no company selector: its Limit is the one without the hint.
		const companyLimits = limits.filter((p) => shownFor(p, 'resource').includes('company'));
		expect(companyLimits.filter((p) => !p.hint)).toHaveLength(1);
	});
});
