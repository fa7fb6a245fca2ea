/**
 * The product's source files, for the unit tests that read the code itself (layers, one door,
 * call names, message texts), and the compiler options their TypeScript checker uses.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(__dirname, '..', '..');

/** Every `.ts` file under `dir`, depth first. */
export function tsSources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return tsSources(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

/** Options of a program built to type-check the product's sources in a test. */
export const CHECKER_OPTIONS: ts.CompilerOptions = {
	strict: true,
	module: ts.ModuleKind.CommonJS,
	moduleResolution: ts.ModuleResolutionKind.Node10,
	target: ts.ScriptTarget.ES2022,
	esModuleInterop: true,
	resolveJsonModule: true,
	skipLibCheck: true,
	noEmit: true,
	types: ['node'],
};
