/** The headless Chromium the browser tests drive (Debian's, no browser download). */
import path from 'node:path';
import type { Page } from 'playwright-core';
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
