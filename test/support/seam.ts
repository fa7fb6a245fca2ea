/**
 * The one seam between the tests (and the benchmark) and the transport's process-wide state,
 * which the package keeps to itself: its settings (frozen in the package) and its flow control
 * (rate budgets, in-flight slots, warm credentials). Loaded before any module of the node (by
 * jest's setupFiles, or as the benchmark's first import), it puts in their place a copy of the
 * settings that tests may change and a flow control that `reset` starts afresh. None of it is
 * in dist/.
 */
import { createRequire } from 'node:module';
import type { TransportSettings } from '../../nodes/Spendesk/transport/settings';

type SettingsModule = typeof import('../../nodes/Spendesk/transport/settings');
type LimiterModule = typeof import('../../nodes/Spendesk/transport/limiter');

const SETTINGS = '../../nodes/Spendesk/transport/settings';
const LIMITER = '../../nodes/Spendesk/transport/limiter';

/** The package's modules, and the same with the seam's settings and flow control in their place. */
function seamed(actualSettings: SettingsModule, actualLimiter: LimiterModule) {
	const defaults = actualSettings.transportSettings;
	const settings: TransportSettings = { ...defaults };
	let flow = new actualLimiter.FlowControl();
	const limiter = Object.defineProperty({ ...actualLimiter }, 'flowControl', {
		get: () => flow,
		enumerable: true,
	});
	const seam = {
		/** The settings the transport reads: change them for a test. */
		settings,
		/** The package's settings. */
		defaults,
		/** A new process as far as the transport is concerned: no budgets, slots or warm credentials, the package's settings with `overrides`. */
		reset(overrides: Partial<TransportSettings> = {}): void {
			flow = new actualLimiter.FlowControl();
			Object.assign(settings, defaults, overrides);
		},
	};
	return { seam, settingsModule: { transportSettings: settings }, limiter };
}

function install() {
	if (typeof jest !== 'undefined') {
		const parts = seamed(
			jest.requireActual<SettingsModule>(SETTINGS),
			jest.requireActual<LimiterModule>(LIMITER),
		);
		jest.mock(SETTINGS, () => parts.settingsModule);
		jest.mock(LIMITER, () => parts.limiter);
		return parts.seam;
	}
	// Node's module cache (the benchmark, under tsx): the modules are replaced before the node loads them.
	const load = createRequire(__filename);
	const settingsPath = load.resolve(SETTINGS);
	const limiterPath = load.resolve(LIMITER);
	const parts = seamed(load(settingsPath) as SettingsModule, load(limiterPath) as LimiterModule);
	load.cache[settingsPath]!.exports = parts.settingsModule;
	load.cache[limiterPath]!.exports = parts.limiter;
	return parts.seam;
}

export const transportSeam = install();
