// ESLint flat config.
//
// For nodes/, credentials/ and package.json this reproduces the config exported by
// `@n8n/node-cli/eslint` (the one `n8n-node lint` runs in n8n-nodes-starter), wired by hand:
// installing @n8n/node-cli itself would pull the whole LangChain stack in through
// @n8n/ai-node-sdk. Keep the two in step when bumping the n8n plugins.
// Left out on purpose: node-cli's eslint-plugin-import-x + TypeScript import resolver
// (unresolved imports are already caught by tsc). Their native resolver (unrs-resolver)
// is not available from the registry for every platform, which breaks `npm ci`.
//
// test/ and the repo's JS tooling files get the generic JS/TypeScript rules only: the
// n8n community rules (restricted globals/imports, etc.) are about code that runs inside n8n.
import js from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { globalIgnores } from 'eslint/config';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const communityNodesRecommended = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	globalIgnores(['dist', 'coverage', 'test-output', 'bench/results.json', '.cache']),

	// Code shipped to n8n: same rule sets as @n8n/node-cli's config.
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		extends: [js.configs.recommended, tseslint.configs.recommended, communityNodesRecommended],
		rules: {
			// Off in node-cli's config: n8n helpers are called with `.apply(this, args)` to keep their context.
			'prefer-spread': 'off',
			'no-console': 'error',
		},
	},
	{
		plugins: { 'n8n-nodes-base': n8nNodesBase },
	},
	{
		files: ['package.json'],
		extends: [communityNodesRecommended],
		rules: n8nNodesBase.configs.community.rules,
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: {
				extraFileExtensions: ['.json'],
			},
		},
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Off in node-cli's config: the rule wants an n8n docs slug; a community credential links a full URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			// Off in node-cli's config: it guesses secrets from field names; secret fields here set `password` themselves.
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Off in node-cli's config: it wants the string 'main'; n8n's typed NodeConnectionTypes.Main is the same value.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			// Off in node-cli's config: as above, for outputs.
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			// Off in node-cli's config: it demands a maxValue on every Limit; lists here page on to any size.
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},

	// Tests, simulator and other TypeScript outside the shipped code.
	{
		files: ['**/*.ts'],
		ignores: ['nodes/**', 'credentials/**'],
		extends: [js.configs.recommended, tseslint.configs.recommended],
		languageOptions: {
			globals: { ...globals.node },
		},
	},

	// Repo tooling written in plain JS (gulpfile, jest config, reporters, index.js).
	{
		files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
		extends: [js.configs.recommended],
		languageOptions: {
			globals: { ...globals.node },
		},
	},
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: {
			sourceType: 'commonjs',
		},
	},
);
