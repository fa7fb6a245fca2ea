/** The headless Chromium the browser tests drive (Debian's, no browser download). */
import path from 'node:path';
import { REPO_ROOT } from './runtime';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without the background-networking flags Chromium reaches for hosts this machine cannot. */
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];
/** Screenshots and failure pictures (not committed). */
export const OUTPUT_DIR = path.join(REPO_ROOT, 'test-output');
export const UI_TIMEOUT = 30_000;
