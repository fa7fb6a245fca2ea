/**
 * `npm run scan`: n8n's community-package scanner (@n8n/scan-community-package, pinned in
 * scripts/scanner/), run the way n8n's verification runs it: `analyzePackage()` with inline
 * ESLint config ignored, on the source (package.json, nodes/**, credentials/**) and on the
 * tarball `npm pack` makes from the build (compiled .js and package.json).
 *
 * The scanner is installed into .cache/scanner with `npm ci --ignore-scripts`: one of its
 * dependencies has a preinstall script that insists on pnpm, and installing it apart keeps it
 * out of this package's own `npm ci`. Run `npm run build` first (`npm run scan` does).
 *
 * Prints each leg's findings and a summary line; exits 1 when either leg has an error.
 */
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const REPO_ROOT = path.resolve(__dirname, '..');
const PIN_DIR = path.join(REPO_ROOT, 'scripts', 'scanner');
const INSTALL_DIR = path.join(REPO_ROOT, '.cache', 'scanner');
const SCANNER_MODULE = path.join(
	INSTALL_DIR,
	'node_modules',
	'@n8n',
	'scan-community-package',
	'scanner',
	'scanner.mjs',
);

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}

interface Scanner {
	analyzePackage(dir: string, patterns?: string[]): Promise<ScanResult>;
	SOURCE_FILE_PATTERNS: string[];
}

/** Installs the pinned scanner into .cache/scanner unless the same lockfile is installed there. */
function installScanner(): void {
	const lock = readFileSync(path.join(PIN_DIR, 'package-lock.json'), 'utf8');
	const installedLock = path.join(INSTALL_DIR, 'package-lock.json');
	if (
		existsSync(SCANNER_MODULE) &&
		existsSync(installedLock) &&
		readFileSync(installedLock, 'utf8') === lock
	)
		return;
	console.log('scan: installing @n8n/scan-community-package (pinned) into .cache/scanner');
	rmSync(INSTALL_DIR, { recursive: true, force: true });
	mkdirSync(INSTALL_DIR, { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		copyFileSync(path.join(PIN_DIR, file), path.join(INSTALL_DIR, file));
	execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
		cwd: INSTALL_DIR,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
}

/** `npm pack` of the built package, unpacked; returns the package directory. */
function packTarball(): string {
	if (!existsSync(path.join(REPO_ROOT, 'dist')))
		throw new Error('No dist/: run `npm run build` first (or `npm run scan`, which builds).');
	const dir = mkdtempSync(path.join(tmpdir(), 'spendesk-scan-'));
	execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
		cwd: REPO_ROOT,
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
	if (!tarball) throw new Error('npm pack made no tarball');
	execFileSync('tar', ['xzf', tarball], { cwd: dir });
	return path.join(dir, 'package');
}

/** Number of ESLint errors in the stylish report, 0 for a pass. */
function errorCount(result: ScanResult): number {
	if (result.passed) return 0;
	const match = /(\d+) errors?/.exec(result.details ?? '');
	return match ? Number(match[1]) : 1;
}

async function main(): Promise<void> {
	installScanner();
	const scanner = (await import(pathToFileURL(SCANNER_MODULE).href)) as Scanner;
	const tarballDir = packTarball();
	try {
		const legs: Array<[string, ScanResult]> = [
			['source', await scanner.analyzePackage(REPO_ROOT, scanner.SOURCE_FILE_PATTERNS)],
			['tarball', await scanner.analyzePackage(tarballDir, ['**/*.js', 'package.json'])],
		];
		for (const [leg, result] of legs) {
			console.log(`scan ${leg}: ${result.passed ? 'passed' : `FAILED: ${result.message ?? ''}`}`);
			if (result.details) console.log(result.details.trimEnd());
		}
		const counts = legs.map(([leg, result]) => `${leg} ${errorCount(result)} errors`);
		console.log(`scan: ${counts.join(', ')}`);
		if (legs.some(([, result]) => !result.passed)) process.exitCode = 1;
	} finally {
		rmSync(path.dirname(tarballDir), { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
