/**
 * The package's layers, as CONTRIBUTING.md ("Architecture") states them.
 * test/unit/layers.test.ts runs these rules over nodes/ and credentials/ and fails on a violation,
 * and on a file that belongs to no layer.
 *
 * LAYERS lists the groups from the bottom up. A group imports from itself and from groups of
 * lower layers only: never upwards, never a sibling of its own layer. On top of that, an
 * operation file never imports another, no import circle, and product code never reaches tests.
 */
const LAYERS = [
	{ scopes: '^credentials/scopes\\.ts$' },
	{ transport: '^nodes/Spendesk/transport/' },
	{
		values: '^nodes/Spendesk/values/',
		companies: '^nodes/Spendesk/companies/',
		credentials: '^credentials/(?!scopes\\.ts$)',
	},
	{
		actions: '^nodes/Spendesk/actions/',
		methods: '^nodes/Spendesk/methods/',
		webhook: '^nodes/Spendesk/webhook/',
		trigger: '^nodes/Spendesk/trigger/',
	},
	{
		nodes: '^nodes/Spendesk/[^/]+\\.ts$',
	},
];

const layerRules = LAYERS.flatMap((layer, rank) =>
	Object.entries(layer)
		.map(([group, path]) => {
			const above = LAYERS.slice(rank).flatMap((upper, offset) =>
				Object.entries(upper)
					.filter(([other]) => offset > 0 || other !== group)
					.map(([, otherPath]) => otherPath),
			);
			if (above.length === 0) return [];
			return {
				name: `${group}-imports-only-below`,
				comment: `${group} imports only from itself and from lower layers (.dependency-cruiser.cjs).`,
				severity: 'error',
				from: { path },
				to: { path: above },
			};
		})
		.flat(),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
	forbidden: [
		...layerRules,
		{
			name: 'no-circular',
			comment: 'An import circle ties modules that should be read one at a time.',
			severity: 'error',
			from: {},
			to: { circular: true },
		},
		{
			name: 'operation-imports-no-operation',
			comment: 'An operation file is a leaf: what two operations share lives in a helper module.',
			severity: 'error',
			from: { path: '\\.operation\\.ts$' },
			to: { path: '\\.operation\\.ts$' },
		},
		{
			name: 'product-imports-no-test',
			comment: 'Nothing under nodes/ or credentials/ reaches test/, bench/ or scripts/.',
			severity: 'error',
			from: { path: ['^nodes/', '^credentials/'] },
			to: { path: ['^test/', '^bench/', '^scripts/'] },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: ['node_modules', '^dist/'] },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		moduleSystems: ['es6', 'cjs'],
	},
};

// Read by test/unit/layers.test.ts (every product file belongs to one group); not a cruiser option.
Object.defineProperty(module.exports, 'LAYERS', { value: LAYERS, enumerable: false });
