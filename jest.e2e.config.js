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
	// One n8n at a time: they share the CPU, the cache folder and the task-broker ports.
	maxWorkers: 1,
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	moduleFileExtensions: ['ts', 'js', 'json'],
	reporters: ['default', '<rootDir>/test/reporters/summary-line.js'],
};
