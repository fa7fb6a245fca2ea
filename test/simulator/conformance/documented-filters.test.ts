/**
 * The documented filters (docs/api.md#filters), in both profiles: settlements, payables
 * snapshots (the 31-day payable-date window) and suppliers.
 */
import { SpendeskSimulator } from '../server';
import { api, err, ids, listed, token } from './helpers';

describe.each(['specification', 'documented'] as const)(
	'documented filters (%s profile)',
	(profile) => {
		let sim: SpendeskSimulator;
		let t: string;
		const source = (s: string) => (profile === 'documented' ? s.replace(/^(body|query)\./, '') : s);

		beforeAll(async () => {
			sim = new SpendeskSimulator({
				profile,
				rateLimit: 10_000,
				maxInFlight: undefined,
				snapshotPendingPolls: 0,
				seed: {
					companies: 2,
					sizes: { invoices: 2, payables: 40, settlements: 10, suppliers: 12 },
				},
				grantScopes: { 'sim-company-client': ['experimental:settlement:update'] },
			});
			await sim.start();
			t = await token(sim, sim.credentials.companyKey);
		});
		afterAll(async () => sim.stop());

		describe('GET /v1/settlements', () => {
			test('state[] and exportedAfter follow the state write; paidFrom[]; ids; sort', async () => {
				const all = sim.data('cmp_001').settlements;
				const put = (id: string, state: string) =>
					api(sim, t, `/v1/settlements/${id}/state`, { method: 'PUT', body: { state } });
				expect((await put(all[1].id, 'exported')).status).toBe(200);
				const cut = sim.clock.iso();
				sim.clock.advance(1000);
				expect((await put(all[3].id, 'exported')).status).toBe(200);
				expect((await put(all[4].id, 'failedToExport')).status).toBe(200);
				const list = async (query: string) => {
					const res = await api(sim, t, `/v1/settlements?${query}`);
					expect(res.status).toBe(200);
					return ids(res.body.data);
				};
				expect(await list('state=exported')).toEqual([all[1].id, all[3].id]);
				expect(await list('state=exported&state=failedToExport')).toEqual([
					all[1].id,
					all[3].id,
					all[4].id,
				]);
				expect(await list('state[]=created')).toEqual(
					ids(all.filter((_, i) => ![1, 3, 4].includes(i))),
				);
				expect(await list(`exportedAfter=${encodeURIComponent(cut)}`)).toEqual([all[3].id]);
				all[7].paidFrom = 'externalAccount';
				const external = all.filter((s) => s.paidFrom === 'externalAccount');
				expect(external.length).toBeGreaterThan(1);
				expect(external.length).toBeLessThan(all.length);
				expect(await list('paidFrom=externalAccount')).toEqual(ids(external));
				expect(await list('paidFrom=spendeskAccount')).toEqual(
					ids(all.filter((s) => s.paidFrom === 'spendeskAccount')),
				);
				expect(await list('paidFrom=spendeskAccount&paidFrom=externalAccount')).toEqual(ids(all));
				expect(await list(`ids=${all[2].id},${all[6].id}`)).toEqual([all[2].id, all[6].id]);
				expect(await list(`ids=${all[2].id}&ids=${all[6].id}`)).toEqual([all[2].id, all[6].id]);
				expect(await list('sort=-createdAt')).toEqual(ids(all).reverse());
				expect(await list('sort=%2BcreatedAt')).toEqual(ids(all));
				for (const [query, at] of [
					['state=paid', 'query.state'],
					['paidFrom=card', 'query.paidFrom'],
					['sort=amount', 'query.sort'],
					['exportedAfter=yesterday', 'query.exportedAfter'],
				]) {
					const res = await api(sim, t, `/v1/settlements?${query}`);
					expect(res.status).toBe(400);
					expect(err(res).source).toBe(source(at));
				}
			});
		});

		describe('POST /v1/snapshots/payables', () => {
			const snapshot = async (body: Record<string, unknown>) => {
				const created = await api(sim, t, '/v1/snapshots/payables', { method: 'POST', body });
				if (created.status !== 201) return created;
				return api(sim, t, `/v1/snapshots/payables/${created.body.key}`);
			};
			const payables = () => sim.data('cmp_001').payables;

			test('fromPayableDate and toPayableDate at most 31 days apart: beyond, a 400', async () => {
				const ok = await snapshot({ fromPayableDate: '2026-01-01', toPayableDate: '2026-02-01' });
				expect(ok.status).toBe(200);
				expect(ok.body.status).toBe('COMPLETE');
				const tooWide = await snapshot({
					fromPayableDate: '2026-01-01',
					toPayableDate: '2026-02-02',
				});
				expect(tooWide.status).toBe(400);
				expect(err(tooWide).source).toBe(source('body.toPayableDate'));
				expect(err(tooWide).detail).toMatch(/31 days/);
				const reversed = await snapshot({
					fromPayableDate: '2026-01-05',
					toPayableDate: '2026-01-01',
				});
				expect(reversed.status).toBe(400);
			});

			test('31 days apart counts whole days: up to the last millisecond of the 31st day after fromPayableDate, accepted', async () => {
				for (const [from, to] of [
					['2026-01-01T00:00:00.000Z', '2026-02-01T23:59:59.999Z'],
					// 2026-10-01 to 2026-10-31 in Paris, the clock going back an hour between.
					['2026-09-30T22:00:00.000Z', '2026-10-31T22:59:59.999Z'],
				]) {
					const ok = await snapshot({ fromPayableDate: from, toPayableDate: to });
					expect(ok.status).toBe(200);
				}
				const tooWide = await snapshot({
					fromPayableDate: '2026-01-01T00:00:00.000Z',
					toPayableDate: '2026-02-02T00:00:00.000Z',
				});
				expect(tooWide.status).toBe(400);
				expect(err(tooWide).detail).toBe(
					'fromPayableDate and toPayableDate must be at most 31 days apart',
				);
			});

			test('ids, createdFrom/createdTo, bookkeepingStatus, exportedAfter, sortBy and sortOrder', async () => {
				const list = payables();
				const pick = await snapshot({ ids: [list[3].id, list[1].id] });
				expect(ids(pick.body.result.data)).toEqual([list[1].id, list[3].id]);
				const created = await snapshot({
					createdFrom: list[5].createdAt,
					createdTo: list[8].createdAt,
				});
				expect(ids(created.body.result.data)).toEqual(ids(list.slice(5, 9)));
				const desc = await snapshot({
					sortBy: 'payableDate',
					sortOrder: 'desc',
					ids: list.slice(0, 3).map((p) => p.id),
				});
				expect(ids(desc.body.result.data)).toEqual(ids(list.slice(0, 3)).reverse());
				Object.assign(list[9], {
					bookkeepingStatus: 'exported',
					updatedAt: '2026-03-01T00:00:00.000Z',
				});
				const exported = await snapshot({ bookkeepingStatus: ['exported'] });
				expect(ids(exported.body.result.data)).toEqual([list[9].id]);
				const after = await snapshot({ exportedAfter: '2026-02-28T00:00:00Z' });
				expect(ids(after.body.result.data)).toEqual([list[9].id]);
				const updated = await snapshot({ updatedFrom: '2026-02-28T00:00:00Z' });
				expect(ids(updated.body.result.data)).toEqual([list[9].id]);
				const bad = await snapshot({ sortOrder: 'up' });
				expect(bad.status).toBe(400);
				expect(err(bad).source).toBe(source('body.sortOrder'));
			});
		});

		describe('GET /v1/suppliers', () => {
			test('ids, createdBefore/After, updatedBefore/After, bankCountry, iban and vatNumber', async () => {
				const all = sim.data('cmp_001').suppliers;
				const list = async (query: string) => {
					const res = await api(sim, t, `/v1/suppliers?${query}`);
					expect(res.status).toBe(200);
					return ids(res.body.data);
				};
				expect(await list(`ids=${all[0].id},${all[4].id}`)).toEqual([all[0].id, all[4].id]);
				expect(
					await list(`createdAfter=${all[2].createdAt}&createdBefore=${all[6].createdAt}`),
				).toEqual(ids(all.slice(3, 6)));
				const pivot = all[5].updatedAt;
				expect(await list(`updatedBefore=${pivot}`)).toEqual(
					ids(all.filter((s) => s.updatedAt < pivot)),
				);
				const withIban = all.find((s) => s.iban)!;
				expect(await list(`iban=${withIban.iban}`)).toEqual([withIban.id]);
				// The filter is named vatNumber; the supplier as read carries vatNo (docs/api.md#suppliers-as-read).
				const withVat = all.find((s) => s.vatNo)!;
				expect(await list(`vatNumber=${withVat.vatNo}`)).toEqual([withVat.id]);
				expect(await list('bankCountry=FR')).toEqual(ids(all.filter((s) => s.iban)));
				all[1].bankCountry = 'DE';
				expect(await list('bankCountry=de')).toEqual([all[1].id]);
				const bad = await api(sim, t, '/v1/suppliers?createdAfter=soon');
				expect(bad.status).toBe(400);
			});
		});

		test('analytical fields and values take includeArchived (docs/api.md#the-documented-profile)', async () => {
			const field = sim.data('cmp_001').analyticalFields[0];
			field.values[0].isArchived = true;
			const values = async (query: string) =>
				// The documented profile answers this list as a bare array (docs/api.md#page-lists).
				listed((await api(sim, t, `/v1/analytical-fields/${field.id}/values?${query}`)).body);
			expect(await values('')).not.toContain(field.values[0].id);
			expect(await values('includeArchived=true')).toContain(field.values[0].id);
		});
	},
);
