// Jest reporter that closes the run with one plain line on stdout:
//   jest: N passed, M failed[, K skipped]
// CI recognises a bare "N passed, N failed" line as the test summary, so it has to
// be the very last line of output. Jest always runs its own SummaryReporter (the
// "Test Suites: ..." block) after every configured reporter, so the line is
// written when the process exits rather than straight from onRunComplete.
// (In watch mode, where the process stays up, it is written at once.)
//
// A test file that could not run at all (syntax error, failing import, ...) has no
// failed tests of its own; each such file counts as one failure so that a broken
// run never reads "0 failed".
class SummaryLineReporter {
	constructor(globalConfig) {
		this._watch = Boolean(globalConfig && (globalConfig.watch || globalConfig.watchAll));
		this._line = null;
	}

	onRunComplete(_testContexts, results) {
		const passed = results.numPassedTests;
		const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
		const skipped = results.numPendingTests + results.numTodoTests;
		let line = `jest: ${passed} passed, ${failed} failed`;
		if (skipped > 0) {
			line += `, ${skipped} skipped`;
		}

		if (this._watch) {
			process.stdout.write(`${line}\n`);
			return;
		}
		if (this._line === null) {
			process.once('exit', () => {
				// Writes to files and pipes are synchronous on Linux, so this is
				// flushed even though the process is exiting.
				process.stdout.write(`${this._line}\n`);
			});
		}
		this._line = line;
	}
}

module.exports = SummaryLineReporter;
