/**
 * The shape of the shipped code: no function in nodes/ or credentials/ longer than 60 lines,
 * so each reads in one screen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const MAX_LINES = 60;

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sources(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/** Every function-like node of a file with its line count. */
function functionLengths(file: string): Array<{ where: string; lines: number }> {
	const source = ts.createSourceFile(
		file,
		readFileSync(file, 'utf8'),
		ts.ScriptTarget.Latest,
		true,
	);
	const found: Array<{ where: string; lines: number }> = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			found.push({ where: `${path.relative(ROOT, file)}:${start + 1}`, lines: end - start + 1 });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

test(`no function in nodes/ or credentials/ is over ${MAX_LINES} lines`, () => {
	const files = [...sources(path.join(ROOT, 'nodes')), ...sources(path.join(ROOT, 'credentials'))];
	const all = files.flatMap(functionLengths);
	expect(all.length).toBeGreaterThan(50);
	expect(all.filter((f) => f.lines > MAX_LINES)).toEqual([]);
});
