/**
 * Runs once before the end-to-end test files: builds and packs the package a single time and
 * hands the tarball to every file (each file gets fresh modules, so packPackage's own memo
 * would otherwise build and pack once per file).
 */
import { PACKED_TARBALL_ENV, packPackage } from './runtime';

export default async function globalSetup(): Promise<void> {
	process.env[PACKED_TARBALL_ENV] = await packPackage();
}
