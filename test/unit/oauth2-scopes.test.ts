/**
 * The scopes the OAuth2 credential asks for (docs/api.md#scopes-asked-for): computed from the
 * Experimental Features choice, and sent as the `scope` of the approval link.
 */
import { SpendeskOAuth2Api } from '../../credentials/SpendeskOAuth2Api.credentials';
import {
	DEFAULT_SCOPES,
	EXPERIMENTAL_FEATURES,
	scopesFor,
} from '../../nodes/Spendesk/transport/endpoints';
import { approvalAddress } from '../../nodes/Spendesk/transport/oauth2';
import { DOCUMENTED_READ_SCOPES } from '../support/vendorScopes';

const property = (name: string) => new SpendeskOAuth2Api().properties.find((p) => p.name === name);
const values = EXPERIMENTAL_FEATURES.map((f) => f.value);

test('no feature chosen: the documented read scopes, nothing experimental', () => {
	const scope = scopesFor([]);
	expect(scope.split(' ').slice(0, DOCUMENTED_READ_SCOPES.length)).toEqual([
		...DOCUMENTED_READ_SCOPES,
	]);
	expect(scope).not.toContain('experimental:');
	expect(scope.split(' ')).toEqual([...DEFAULT_SCOPES]);
});

test('each feature adds its scopes, once each, after the default ones', () => {
	expect(scopesFor(['webhooks'])).toBe(
		`${DEFAULT_SCOPES.join(' ')} experimental:webhooks:read experimental:webhooks:write`,
	);
	expect(scopesFor(['accountingWriteBack', 'organisationAccess']).split(' ').slice(-5)).toEqual([
		'experimental:company:read',
		'experimental:analytical-field:read',
		'experimental:expense-category:read',
		'experimental:accounting:update',
		'experimental:settlement:update',
	]);
	const all = scopesFor(values).split(' ');
	expect(new Set(all).size).toBe(all.length);
	expect(all).toEqual(
		expect.arrayContaining([
			'experimental:invoice:read',
			'experimental:intake:write',
			'experimental:supplier:manage',
			'experimental:payable-search:read',
			'experimental:accounting-export:read',
			'experimental:purchase-order:write',
		]),
	);
});

test('the credential shows the choice; the approval link asks for the scopes it gives', () => {
	expect(property('experimentalFeatures')).toMatchObject({ type: 'multiOptions', default: [] });
	expect(property('scope')).toBeUndefined();
	const choices = [[], ...values.map((v) => [v]), values, ['invoicesIntakes', 'webhooks']];
	for (const chosen of choices) {
		const link = approvalAddress({
			environment: 'production',
			clientId: 'app',
			clientSecret: 's',
			redirectUri: 'https://example.com/callback',
			experimentalFeatures: chosen,
		});
		const sent = new URL(link!).searchParams.get('scope');
		expect({ chosen, sent }).toEqual({ chosen, sent: scopesFor(chosen) });
	}
	// A credential saved before the field existed: as if nothing was chosen.
	const bare = approvalAddress({
		environment: 'production',
		clientId: 'app',
		clientSecret: 's',
		redirectUri: 'https://example.com/callback',
	});
	expect(new URL(bare!).searchParams.get('scope')).toBe(scopesFor([]));
});
