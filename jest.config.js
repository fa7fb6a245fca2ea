/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	testTimeout: 30000,
	transform: {
		// tsconfig.test.json sets isolatedModules, so ts-jest transpiles each file
		// without type-checking (fast); `npm run typecheck` does the type-checking.
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	moduleFileExtensions: ['ts', 'js', 'json'],
	// The transport's settings and flow control as tests may change and renew them (one seam, not shipped).
	setupFiles: ['<rootDir>/test/support/seam.ts'],
	reporters: ['default', '<rootDir>/test/reporters/summary-line.js'],
};
