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
	reporters: ['default', '<rootDir>/test/reporters/summary-line.js'],
};
