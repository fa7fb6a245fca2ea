/** The headless Chromium the browser tests drive (Debian's, no browser download). */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, selectors } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { REPO_ROOT } from './runtime';
import { DEFAULT_OWNER } from './server';
import type { N8nServer } from './server';

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

/** Before a browser test file: Chromium is there, test-output/ exists, n8n's test IDs are found. */
export function prepareBrowserTests(): void {
	if (!existsSync(CHROMIUM))
		throw new Error(
			`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
		);
	mkdirSync(OUTPUT_DIR, { recursive: true });
	selectors.setTestIdAttribute('data-test-id');
}

/** Headless Chromium, as every browser test starts it. */
export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/** Signs the owner in on n8n's sign-in page and waits to leave it. */
export async function signIn(page: Page, baseUrl: string): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await page.locator('input[name="emailOrLdapLoginId"]').fill(DEFAULT_OWNER.email);
	await page.locator('input[name="password"]').fill(DEFAULT_OWNER.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/**
 * One step of a browser test: on failure, a screenshot of where the browser was (`picture`.png
 * in OUTPUT_DIR) and the end of n8n's output join the error.
 */
export async function browserStep(
	picture: string,
	at: { page?: Page; server?: N8nServer },
	body: () => Promise<void>,
): Promise<void> {
	try {
		await body();
	} catch (error) {
		const file = path.join(OUTPUT_DIR, `${picture}.png`);
		await at.page?.screenshot({ path: file, fullPage: true }).catch(() => undefined);
		(error as Error).message +=
			`\n(screenshot: ${file}; page: ${at.page?.url()})\n--- n8n output ---\n${at.server?.logs().slice(-3000)}`;
		throw error;
	}
}
