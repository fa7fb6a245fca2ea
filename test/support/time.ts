/** Small timing helpers shared by the tests. */

/** Resolves after `ms` milliseconds of real time. */
export const sleep = (ms: number): Promise<void> =>
	new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An epoch time in milliseconds as an ISO 8601 string. */
export const iso = (ms: number): string => new Date(ms).toISOString();
