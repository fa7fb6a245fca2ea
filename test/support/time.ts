/** Small timing helpers shared by the tests. */

/** Resolves after `ms` milliseconds of real time. */
export const sleep = (ms: number): Promise<void> =>
	new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, looking every 5 ms; false if it still does not after 5 s. */
export async function eventually(condition: () => boolean): Promise<boolean> {
	for (let waited = 0; waited < 5000; waited += 5) {
		if (condition()) return true;
		await sleep(5);
	}
	return condition();
}

/** An epoch time in milliseconds as an ISO 8601 string. */
export const iso = (ms: number): string => new Date(ms).toISOString();
