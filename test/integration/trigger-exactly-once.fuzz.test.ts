/**
 * Exactly-once tests of the Spendesk Trigger (nodes/Spendesk/trigger) under a randomized
 * workload, against the simulator over real HTTP. The longest runs of the suite (about 40 s
 * each): `npm run test:fast` leaves out every test file whose name contains "fuzz". The
 * smallest sequence behind the misses they found is in trigger-exactly-once.test.ts.
 *
 * The randomized tests run 1,000+ polls over three companies with a seeded PRNG. Between polls
 * (and while a poll is paging) they insert and update invoices: single ones, batches sharing one
 * `updatedAt`, bursts of more than one page (> 100) sharing one `updatedAt`, invoices updated
 * twice, invoices that become visible late (their `createdAt`/`updatedAt` lie up to half the
 * overlap window in the past). The simulated clock moves 1–8 s per poll; now and then polls are
 * skipped for a while (8–30 steps of writes without a poll, as when n8n is busy or down), and the
 * catch-up poll that follows always has writes made while it pages. They make polls fail
 * (injected 5xx and dropped connections, with no transport retry, also on later pages) and
 * restart n8n (sometimes after some downtime with writes): the static data is reloaded from the
 * last copy n8n would have persisted (after the activation, and after each poll that emitted
 * items; a poll that returned null leaves its changes in memory only), into a new context.
 *
 * What is asserted, per event:
 * - New Invoice: every invoice inserted after activation is emitted exactly once (none missing
 *   after a couple of final quiet polls), nothing that existed at activation is emitted.
 * - New or Updated Invoice: no (id, updatedAt) pair is emitted twice; every emitted pair is a real
 *   version created after activation; every version that was current both at the start and at the
 *   end of some successful poll of its company that read its `updatedAt` is emitted exactly once.
 *   A poll that left a range to a later recheck (its window held more than a page) did not read
 *   the versions dated in that range: such a version (visible late) is owed by a later poll that
 *   reads it, the recheck, if it is still current then. The final quiet polls span an overlap
 *   window, so every recheck is read before the end.
 *
 * A poll "succeeded for a company" when every listInvoices request of that poll for that company
 * got a 200 (simulator request log). Activation (the first poll) runs without faults or concurrent
 * writes: a company whose activation poll fails is a separate case (trigger-manual-and-errors).
 *
 * Seeds: TRIGGER_FUZZ_SEED=<n> overrides both tests' seeds; the seed is part of every failure.
 * The run is deterministic up to the timing of the writes made while a poll is paging.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Invoice, SpendeskSimulator } from '../simulator';
import { prng } from '../simulator/seed';
import { pollItems, resetTransport, startSimulator, triggerFor } from '../support/fixtures';
import type { PollResult, TriggerEvent } from '../support/fixtures';
import { iso, sleep } from '../support/time';

const COMPANIES = ['cmp_001', 'cmp_002', 'cmp_003'];
const OVERLAP_MINUTES = 1;
const OVERLAP_MS = OVERLAP_MINUTES * 60_000;
/** Late visibility: timestamps up to half the overlap window in the past. */
const MAX_SKEW_MS = OVERLAP_MS / 2;
const POLLS = 1_000;
// A guard against a hang, not a speed check: a loaded 2-core CI machine needs well over 90 s.
const FUZZ_TIMEOUT_MS = 240_000;

function seedFor(defaultSeed: number): number {
	const raw = process.env.TRIGGER_FUZZ_SEED;
	if (raw === undefined || raw === '') return defaultSeed;
	if (raw === 'random') return Math.floor(Math.random() * 2 ** 31);
	return Number(raw) >>> 0;
}

interface Version {
	company: string;
	id: string;
	updatedAt: string;
	/** Mutation tick at which this version became current (0 = existed at activation). */
	from: number;
	/** Tick at which it was replaced (Infinity while current). */
	to: number;
}

interface PollRecord {
	step: number;
	startTick: number;
	endTick: number;
	/** Companies for which every listInvoices request of this poll got a 200. */
	succeeded: Set<string>;
	/**
	 * Per company, the range of `updatedAt` (ms, after the first, up to the second) this poll
	 * left to a later recheck (it read only what is newer): a version dated in it that became
	 * visible late is emitted by that recheck, if it is still current then.
	 */
	deferred: Map<string, [number, number]>;
}

interface FuzzOptions {
	event: TriggerEvent;
	scope: 'several' | 'all';
	seed: number;
}

interface FuzzReport {
	seed: number;
	violations: string[];
	stats: Record<string, number>;
}

/** One randomized run; returns the violations of the exactly-once contract. */
async function fuzz(
	sim: SpendeskSimulator,
	{ event, scope, seed }: FuzzOptions,
): Promise<FuzzReport> {
	const rng = prng(seed);
	const chance = (p: number) => rng() < p;
	const int = (min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
	const pick = <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)];
	const stats: Record<string, number> = {
		polls: 0,
		inserted: 0,
		updates: 0,
		bursts: 0,
		midPollWrites: 0,
		lateWrites: 0,
		faults: 0,
		failedCompanyPolls: 0,
		restarts: 0,
		pauses: 0,
		emitted: 0,
		deferringPolls: 0,
	};

	// ------------------------------------------------------------ model of the simulator's data
	let tick = 0;
	const versions = new Map<string, Version>(); // company|id|updatedAt
	const current = new Map<string, Version>(); // company|id
	const history = new Map<string, string[]>(); // company|id → what happened, for failure messages
	const preexisting = new Set<string>(); // company|id at activation
	const insertedAfter = new Set<string>(); // company|id inserted after activation
	const recent: Record<string, string[]> = Object.fromEntries(COMPANIES.map((c) => [c, []]));
	const everyId: Record<string, string[]> = Object.fromEntries(COMPANIES.map((c) => [c, []]));
	/** Invoices inserted one by one (not in a batch), with the clock time of the insert. */
	const singles: Record<string, Array<{ id: string; at: number }>> = Object.fromEntries(
		COMPANIES.map((c) => [c, []]),
	);
	let step = 0;
	let phase = 'setup';

	const note = (key: string, what: string) => {
		const list = history.get(key) ?? [];
		list.push(`step ${step} ${phase}: ${what}`);
		history.set(key, list);
	};

	function record(invoice: Invoice, what: string): void {
		tick++;
		const key = `${invoice.companyId}|${invoice.id}`;
		const previous = current.get(key);
		note(key, `${what} updatedAt=${invoice.updatedAt} createdAt=${invoice.createdAt}`);
		if (previous) {
			if (previous.updatedAt === invoice.updatedAt) return;
			previous.to = tick;
		}
		const version: Version = {
			company: invoice.companyId,
			id: invoice.id,
			updatedAt: invoice.updatedAt,
			from: tick,
			to: Infinity,
		};
		versions.set(`${key}|${invoice.updatedAt}`, version);
		current.set(key, version);
	}

	for (const company of COMPANIES) {
		for (const invoice of sim.invoicesSorted(company, 'updatedAt', 'asc')) {
			const key = `${company}|${invoice.id}`;
			const version: Version = {
				company,
				id: invoice.id,
				updatedAt: invoice.updatedAt,
				from: 0,
				to: Infinity,
			};
			versions.set(`${key}|${invoice.updatedAt}`, version);
			current.set(key, version);
			preexisting.add(key);
			everyId[company].push(invoice.id);
		}
	}
	const activationTick = tick;

	/** A timestamp now, or up to MAX_SKEW_MS in the past (late visibility). */
	function stamp(lateChance = 0.3): number {
		const now = sim.clock.now();
		if (!chance(lateChance)) return now;
		stats.lateWrites++;
		return now - Math.floor(rng() * MAX_SKEW_MS);
	}

	function insert(company: string, at: number, what: string): void {
		const invoice = sim.insertInvoice(company, { createdAt: iso(at), updatedAt: iso(at) });
		const key = `${company}|${invoice.id}`;
		insertedAfter.add(key);
		everyId[company].push(invoice.id);
		recent[company].push(invoice.id);
		if (recent[company].length > 400) recent[company].splice(0, 100);
		if (what === 'insert') {
			singles[company].push({ id: invoice.id, at: sim.clock.now() });
			if (singles[company].length > 400) singles[company].splice(0, 100);
		}
		stats.inserted++;
		record(invoice, what);
	}

	/** Updates one invoice; its updatedAt always moves forward (never into the future). */
	function update(company: string, id: string, at: number, what: string): void {
		const version = current.get(`${company}|${id}`)!;
		let next = Math.max(at, Date.parse(version.updatedAt) + 1);
		const now = sim.clock.now();
		if (next > now) sim.clock.advance(next - now);
		next = Math.min(next, sim.clock.now());
		const invoice = sim.updateInvoice(company, id, { updatedAt: iso(next) });
		stats.updates++;
		record(invoice, what);
	}

	/** An invoice inserted on its own within the last 2.5 minutes (likely below a poll's first page). */
	function someRecentSingle(company: string): string {
		const since = sim.clock.now() - 150_000;
		const candidates = singles[company].filter((s) => s.at >= since);
		return candidates.length ? pick(candidates).id : someInvoice(company);
	}

	function someInvoice(company: string): string {
		const r = rng();
		if (r < 0.55 && recent[company].length) return pick(recent[company].slice(-40));
		if (r < 0.85 && recent[company].length) return pick(recent[company]);
		return pick(everyId[company]);
	}

	/** The writes between two polls. */
	function writes(): void {
		for (const company of COMPANIES) {
			for (let i = int(0, 3); i > 0; i--) insert(company, stamp(), 'insert');
			if (chance(0.1)) {
				// Several invoices sharing one updatedAt.
				const at = stamp(0.5);
				for (let i = int(2, 20); i > 0; i--) insert(company, at, 'insert (shared timestamp)');
			}
			if (chance(0.02)) {
				// More than one page (the trigger asks 100) sharing one updatedAt.
				stats.bursts++;
				const at = stamp(0.5);
				for (let i = int(101, 230); i > 0; i--)
					insert(company, at, 'insert (burst, shared timestamp)');
			}
			for (let i = int(0, 2); i > 0; i--) update(company, someInvoice(company), stamp(), 'update');
			if (chance(0.15)) {
				// Updated twice before the next poll.
				const id = someInvoice(company);
				update(company, id, stamp(), 'update (1 of 2)');
				sim.clock.advance(int(1, 500));
				update(company, id, stamp(0.2), 'update (2 of 2)');
			}
			if (chance(0.05)) {
				// Several invoices updated to one shared updatedAt.
				const at = stamp(0.3);
				for (let i = int(2, 8); i > 0; i--)
					update(company, someInvoice(company), at, 'update (shared timestamp)');
			}
		}
	}

	/** Writes made while a poll is paging. */
	function concurrentWrites(): void {
		for (const company of COMPANIES) {
			if (!chance(0.6)) continue;
			stats.midPollWrites++;
			for (let i = int(0, 2); i > 0; i--) insert(company, stamp(0.5), 'insert during a poll');
			for (let i = int(0, 3); i > 0; i--) {
				const id = chance(0.5) ? someRecentSingle(company) : someInvoice(company);
				update(company, id, stamp(0.3), 'update during a poll');
			}
			if (chance(0.05)) {
				const at = stamp(0.5);
				for (let i = int(101, 150); i > 0; i--) insert(company, at, 'insert during a poll (burst)');
			}
		}
	}

	// ------------------------------------------------------------ the trigger, as n8n runs it
	const parameters: IDataObject = {
		event,
		companies: scope,
		...(scope === 'several' ? { companyIds: COMPANIES } : {}),
		startFrom: 'now',
		options: { overlapMinutes: OVERLAP_MINUTES },
	};
	let staticData: IDataObject = {};
	let persisted = '{}';
	let trigger = await triggerFor(sim, parameters, { staticData });

	const polls: PollRecord[] = [];
	const emittedCount = new Map<string, number>();
	const violations: string[] = [];

	async function poll(duringPoll?: () => Promise<void>): Promise<PollRecord> {
		const logStart = sim.log.length;
		const startTick = tick;
		const rechecksBefore = rechecks();
		stats.polls++;
		const pending = trigger.raw();
		let result: PollResult = null;
		let threw: unknown;
		try {
			if (duringPoll) await duringPoll();
		} finally {
			try {
				result = await pending;
			} catch (error) {
				threw = error;
			}
		}
		const endTick = tick;
		const requests = sim.log.slice(logStart).filter((r) => r.route === 'listInvoices');
		const succeeded = new Set<string>();
		for (const company of COMPANIES) {
			const mine = requests.filter((r) => r.path === `/v2/companies/${company}/invoices`);
			if (threw === undefined && mine.length > 0 && mine.every((r) => r.status === 200 && !r.fault))
				succeeded.add(company);
			else stats.failedCompanyPolls++;
		}
		if (threw !== undefined) {
			violations.push(`step ${step}: the poll threw after activation: ${(threw as Error).message}`);
		}
		for (const item of pollItems(result)) {
			const company = String(item.companyId);
			const key =
				event === 'newInvoice'
					? `${company}|${String(item.id)}`
					: `${company}|${String(item.id)}|${String(item.updatedAt)}`;
			emittedCount.set(key, (emittedCount.get(key) ?? 0) + 1);
			note(`${company}|${String(item.id)}`, `emitted with updatedAt=${String(item.updatedAt)}`);
			stats.emitted++;
		}
		// n8n saves the static data after an execution, i.e. only when the poll emitted items.
		if (result !== null) persisted = JSON.stringify(staticData);
		// A recheck the poll kept unchanged was deferred by it; one it read is gone or replaced.
		const deferred = new Map<string, [number, number]>();
		const rechecksAfter = rechecks();
		for (const [company, range] of rechecksBefore) {
			const after = rechecksAfter.get(company);
			if (succeeded.has(company) && after && after[0] === range[0] && after[1] === range[1])
				deferred.set(company, range);
		}
		if (deferred.size > 0) stats.deferringPolls++;
		const pollRecord = { step, startTick, endTick, succeeded, deferred };
		polls.push(pollRecord);
		return pollRecord;
	}

	function rechecks(): Map<string, [number, number]> {
		const saved = (staticData.companies ?? {}) as Record<string, { recheck?: [number, number] }>;
		const ranges = new Map<string, [number, number]>();
		for (const company of COMPANIES) {
			const range = saved[company]?.recheck;
			if (range) ranges.set(company, [range[0], range[1]]);
		}
		return ranges;
	}

	async function restart(): Promise<void> {
		stats.restarts++;
		staticData = JSON.parse(persisted) as IDataObject;
		resetTransport({ maxRetries: 0 });
		trigger = await triggerFor(sim, parameters, { staticData });
	}

	// ------------------------------------------------------------ activation
	phase = 'activation';
	const activation = await poll();
	if (activation.succeeded.size !== COMPANIES.length) violations.push('the activation poll failed');
	persisted = JSON.stringify(staticData); // n8n saves the static data after activating the workflow

	// ------------------------------------------------------------ the run
	for (step = 1; step <= POLLS; step++) {
		phase = 'between polls';
		const pause = chance(0.05);
		if (pause) {
			// Polls skipped for a while (n8n busy or down): the writes go on.
			stats.pauses++;
			phase = 'pause without polls';
			for (let i = int(8, 30); i > 0; i--) {
				sim.clock.advance(int(1_000, 8_000));
				writes();
			}
			phase = 'between polls';
		}
		sim.clock.advance(int(1_000, 8_000));
		writes();
		if (chance(0.06)) {
			stats.faults++;
			sim.injectFault({
				route: 'listInvoices',
				kind: 'status',
				status: pick([500, 502, 503]),
				times: int(1, 3),
				after: chance(0.3) ? int(1, 3) : 0,
			});
		}
		if (chance(0.03)) {
			stats.faults++;
			sim.injectFault({
				route: 'listInvoices',
				kind: 'reset',
				times: 1,
				after: chance(0.3) ? int(1, 3) : 0,
			});
		}
		// A catch-up poll after a pause reads more pages, so writes during it are likelier.
		const concurrent = pause || chance(0.3);
		phase = concurrent ? 'poll with concurrent writes' : 'poll';
		await poll(
			concurrent
				? async () => {
						for (let i = pause ? 3 : int(1, 2); i > 0; i--) {
							await sleep(int(0, 5));
							concurrentWrites();
						}
					}
				: undefined,
		);
		if (chance(0.02)) {
			phase = 'restart';
			for (let i = chance(0.5) ? int(1, 15) : 0; i > 0; i--) {
				sim.clock.advance(int(1_000, 8_000));
				writes();
			}
			await restart();
		}
	}

	// ------------------------------------------------------------ quiet end
	sim.clearFaults();
	phase = 'final quiet poll';
	// The second poll comes an overlap window after the first, so that the third reads any
	// range left to a recheck.
	for (let i = 0; i < 4; i++) {
		step++;
		sim.clock.advance(i === 1 ? OVERLAP_MS + 5_000 : 5_000);
		const last = await poll();
		if (last.succeeded.size !== COMPANIES.length)
			violations.push(`final quiet poll ${i + 1} failed`);
	}

	// ------------------------------------------------------------ the contract
	const historyOf = (key: string) => (history.get(key) ?? []).slice(-8).join('; ');
	const limited = (label: string, list: string[]) => {
		if (list.length === 0) return;
		violations.push(`${label}: ${list.length}`);
		for (const line of list.slice(0, 8)) violations.push(`  ${line}`);
	};

	if (event === 'newInvoice') {
		const duplicates: string[] = [];
		const old: string[] = [];
		const unknown: string[] = [];
		for (const [key, count] of emittedCount) {
			if (count > 1) duplicates.push(`${key} emitted ${count} times — ${historyOf(key)}`);
			if (preexisting.has(key)) old.push(`${key} existed at activation — ${historyOf(key)}`);
			else if (!insertedAfter.has(key)) unknown.push(`${key} is not an invoice of the simulator`);
		}
		const missingKeys = [...insertedAfter].filter((key) => !emittedCount.has(key));
		const missing = missingKeys.map((key) => `${key} never emitted — ${historyOf(key)}`);
		limited('invoices emitted more than once', duplicates);
		limited('invoices that existed at activation but were emitted', old);
		limited('emitted ids that are not invoices', unknown);
		limited('invoices inserted after activation but never emitted', missing);
		if (missingKeys.length) {
			const midPoll = missingKeys.filter((key) =>
				(history.get(key) ?? []).some((line) => line.includes('update during a poll')),
			);
			violations.push(
				`  (${midPoll.length} of the ${missingKeys.length} were updated while a poll was paging)`,
			);
		}
	} else {
		const duplicates: string[] = [];
		const unreal: string[] = [];
		const old: string[] = [];
		for (const [key, count] of emittedCount) {
			const [company, id] = key.split('|');
			const version = versions.get(key);
			if (count > 1)
				duplicates.push(`${key} emitted ${count} times — ${historyOf(`${company}|${id}`)}`);
			if (!version)
				unreal.push(`${key} was never a version of the invoice — ${historyOf(`${company}|${id}`)}`);
			else if (version.from <= activationTick)
				old.push(`${key} was current at activation — ${historyOf(`${company}|${id}`)}`);
		}
		// Successful polls per company, in order.
		const byCompany = new Map<string, PollRecord[]>(
			COMPANIES.map((c) => [c, polls.filter((p) => p.succeeded.has(c))]),
		);
		const missing: string[] = [];
		let required = 0;
		for (const [key, version] of versions) {
			if (version.from <= activationTick) continue;
			// The first successful poll of its company that started while it was current.
			const list = byCompany.get(version.company)!;
			let lo = 0;
			let hi = list.length;
			while (lo < hi) {
				const mid = (lo + hi) >>> 1;
				if (list[mid].startTick < version.from) lo = mid + 1;
				else hi = mid;
			}
			// The first of them it lived through that read its range (did not defer it).
			const at = Date.parse(version.updatedAt);
			let first: PollRecord | undefined;
			for (let i = lo; i < list.length && list[i].endTick < version.to; i++) {
				const range = list[i].deferred.get(version.company);
				if (!range || at <= range[0] || at > range[1]) {
					first = list[i];
					break;
				}
			}
			if (!first) continue;
			required++;
			if (!emittedCount.has(key)) {
				missing.push(
					`${key} (current during the successful poll of step ${first.step}) never emitted — ${historyOf(`${version.company}|${version.id}`)}`,
				);
			}
		}
		stats.requiredVersions = required;
		limited('versions emitted more than once', duplicates);
		limited('emitted pairs that were never versions', unreal);
		limited('versions current at activation but emitted', old);
		limited('versions current through a successful poll but never emitted', missing);
		// Each invoice's final version is current at the start and end of the final quiet polls.
		for (const version of current.values()) {
			if (
				version.from > activationTick &&
				!emittedCount.has(`${version.company}|${version.id}|${version.updatedAt}`)
			) {
				violations.push(
					`final version ${version.company}|${version.id}|${version.updatedAt} never emitted`,
				);
				break;
			}
		}
	}
	if (violations.length)
		violations.unshift(`reproduce with TRIGGER_FUZZ_SEED=${seed} (${event}, ${scope})`);
	if (process.env.TRIGGER_FUZZ_STATS) console.log(JSON.stringify({ seed, stats }));
	return { seed, violations, stats };
}

describe('Spendesk Trigger: exactly once under a randomized workload (1,000+ polls)', () => {
	let sim: SpendeskSimulator;
	beforeEach(async () => {
		resetTransport({ maxRetries: 0 });
		sim = await startSimulator({
			seed: { companies: 3, deactivated: [], sizes: { invoices: 60 } },
			latencyMs: 2,
			rateLimit: 1_000_000,
			tokenLifetimeSeconds: 365 * 24 * 3600,
		});
	});
	afterEach(async () => {
		await sim.stop();
		resetTransport();
	});

	test(
		'New Invoice, several companies: each invoice inserted after activation exactly once, none that existed before',
		async () => {
			const report = await fuzz(sim, {
				event: 'newInvoice',
				scope: 'several',
				seed: seedFor(20261122),
			});
			expect(report.stats.polls).toBeGreaterThanOrEqual(POLLS);
			expect(report.stats.failedCompanyPolls).toBeGreaterThan(0);
			expect(report.stats.restarts).toBeGreaterThan(0);
			expect(report.stats.deferringPolls).toBeGreaterThan(0);
			expect({ seed: report.seed, violations: report.violations }).toEqual({
				seed: report.seed,
				violations: [],
			});
		},
		FUZZ_TIMEOUT_MS,
	);

	test(
		'New or Updated Invoice, all companies: each version once, every version that lived through a successful poll emitted',
		async () => {
			const report = await fuzz(sim, {
				event: 'newOrUpdatedInvoice',
				scope: 'all',
				seed: seedFor(4242),
			});
			expect(report.stats.polls).toBeGreaterThanOrEqual(POLLS);
			expect(report.stats.failedCompanyPolls).toBeGreaterThan(0);
			expect(report.stats.restarts).toBeGreaterThan(0);
			expect(report.stats.deferringPolls).toBeGreaterThan(0);
			expect(report.stats.requiredVersions).toBeGreaterThan(1_000);
			expect({ seed: report.seed, violations: report.violations }).toEqual({
				seed: report.seed,
				violations: [],
			});
		},
		FUZZ_TIMEOUT_MS,
	);
});
