/**
 * Run first by `npm test` and `npm run dev` (inside their scripts: .npmrc's ignore-scripts also
 * turns off npm's pre-scripts): installs the dependencies when they are missing or differ from
 * package-lock.json, so that both work on a fresh clone without an `npm install` first. Plain Node (it runs before anything is installed). Quick when nothing is
 * missing: it reads one package.json per direct dependency.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

/** Direct dependencies whose installed version is not the locked one (or that are missing). */
function staleDependencies() {
	const pkg = readJson('package.json');
	const lock = readJson('package-lock.json');
	const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
	return names.filter((name) => {
		const locked = lock.packages?.[`node_modules/${name}`]?.version;
		const manifest = path.join(root, 'node_modules', name, 'package.json');
		if (!existsSync(manifest)) return true;
		return locked !== undefined && JSON.parse(readFileSync(manifest, 'utf8')).version !== locked;
	});
}

const stale = staleDependencies();
if (stale.length > 0) {
	const shown = stale.slice(0, 5).join(', ') + (stale.length > 5 ? ', …' : '');
	console.log(`Installing dependencies (missing or not as locked: ${shown}): npm ci`);
	// Inside `npm run`, npm_execpath is the npm that runs us; otherwise the npm on PATH.
	const npmCli = process.env.npm_execpath;
	const [command, args] =
		npmCli && npmCli.endsWith('.js')
			? [process.execPath, [npmCli, 'ci']]
			: [process.platform === 'win32' ? 'npm.cmd' : 'npm', ['ci']];
	execFileSync(command, args, { cwd: root, stdio: 'inherit' });
}
