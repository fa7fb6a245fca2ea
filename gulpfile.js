const path = require('node:path');
const { task, src, dest } = require('gulp');

// Copy node and credential icons next to the compiled code, keeping the folder
// structure (nodes/Foo/foo.svg -> dist/nodes/Foo/foo.svg). Globs that match
// nothing are fine: the task then copies nothing.
function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false, // gulp 5 would otherwise re-encode binary PNGs as UTF-8
		allowEmpty: true,
	}).pipe(dest(path.resolve('dist')));
}

task('build:icons', copyIcons);
