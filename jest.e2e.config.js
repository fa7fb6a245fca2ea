/**
 * End-to-end tests: the package packed, installed into a real n8n (see test/e2e/runtime.ts)
 * and run there against the Spendesk simulator. `npm run test:e2e`; `E2E_TARGETS=node20`
 * limits the n8n versions. Slow (installs n8n on first use), so kept out of `npm test`.
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
	// Builds and packs the package once for all test files.
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	// n8n installs take minutes the first time; one execution of n8n takes seconds.
	testTimeout: 600_000,
	// Two test files at a time (E2E_WORKERS overrides): every n8n gets its own free ports and
	// home folder, and most of a file's time is spent waiting on n8n, not computing.
	maxWorkers: Number(process.env.E2E_WORKERS) || 2,
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	moduleFileExtensions: ['ts', 'js', 'json'],
	reporters: ['default', '<rootDir>/test/reporters/summary-line.js'],
};
