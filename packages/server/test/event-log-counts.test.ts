/**
 * Exact counts from the event log's day summary (docs/event-log.md, "Searching, counting,
 * exporting"), on the database of the run: after random inserts, deletions, changes, retention
 * and collapsed denials, every count through the summary equals the plain count of the entries,
 * and the summary equals the entries grouped by day and type. Rows are written straight into
 * the table in January 2025, away from the portal's own (recent) entries; every count covers
 * those too, and nothing else writes while a test compares.
 */
import type { CheckedLogFilter } from '@tools-portal/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logRepeated } from '../src/services/log/audit.js';
import { dayCountQuery } from '../src/services/log/log-day-counts.js';
import { filteredLog } from '../src/services/log/log-matches.js';
import { countEvents } from '../src/services/log/log-query.js';
import { pruneLog } from '../src/services/log/log-retention.js';
import { useTestPortal } from './support/support.js';

const portal = useTestPortal();
const db = () => portal.deps.db;

const DAY = 24 * 60 * 60 * 1000;
const MIDNIGHT = Date.UTC(2025, 0, 10); // the first of the days the rows fall on
const DAYS = 8;
const TYPES = [
  'login.success',
  'login.failure',
  'login.blocked',
  'log.prune',
  'verify.denied',
  'grant.add',
  'oidc.token.issue',
  'oidc.token.refresh',
  'oidc.consent',
];
const PREFIXES = ['login.', 'log.', 'oidc.', 'oidc.token.', 'grant.', 'nothing.'];

/** A time on one of the days, often exactly at a midnight or a millisecond either side of one. */
const time = fc
  .tuple(fc.integer({ min: 0, max: DAYS }), fc.oneof(fc.constantFrom(0, 0, -1, 1), fc.integer({ min: 0, max: DAY - 1 })))
  .map(([day, offset]) => MIDNIGHT + day * DAY + offset);

const row = fc.record({ at: time, type: fc.constantFrom(...TYPES) }).map(({ at, type }) => ({
  at,
  type,
  area: type.split('.')[0],
  event: 'something happened',
  ip: '10.0.0.1',
  user_agent: 'test',
}));

const logFilter: fc.Arbitrary<CheckedLogFilter> = fc
  .record(
    {
      type: fc.constantFrom(...TYPES, ...PREFIXES),
      times: fc.tuple(time, time).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
      range: fc.constantFrom('from', 'to', 'both'),
    },
    { requiredKeys: [] },
  )
  .map(({ type, times, range }) => ({
    ...(type && { type }),
    ...(times && range !== 'to' && { fromMs: times[0] }),
    ...(times && range && range !== 'from' && { toMs: times[1] }),
  }));

/** Random but the same on every run, so that a failure can be replayed. */
const sample = <T>(arbitrary: fc.Arbitrary<T>, count: number, seed: number): T[] => fc.sample(arbitrary, { numRuns: count, seed });

async function insertRandom(count: number, seed: number): Promise<void> {
  const rows = sample(row, count, seed);
  for (let start = 0; start < rows.length; start += 200) await db()('auth_log').insert(rows.slice(start, start + 200));
}

async function plainCount(filter: CheckedLogFilter): Promise<number> {
  const [row] = await filteredLog(db(), filter).count({ total: '*' });
  return Number(row.total);
}

/** Random filters counted both ways; answers how many went through the summary. */
async function expectSameCounts(runs: number, seed: number): Promise<number> {
  let summed = 0;
  await fc.assert(
    fc.asyncProperty(logFilter, async (filter) => {
      if (dayCountQuery(db(), filter)) summed++;
      expect(await countEvents(db(), filter)).toBe(await plainCount(filter));
    }),
    { numRuns: runs, seed, examples: [[{}]] },
  );
  return summed;
}

/** The summary, and the entries grouped as it groups them: they must be the same rows. */
async function expectSummaryOfEntries(): Promise<void> {
  const order = ['day', 'area', 'type'];
  const summary = await db()('auth_log_days').select('day', 'area', 'type', 'entries').orderBy(order);
  const grouped = await db()
    .from(db()('auth_log').select(db().raw('at / 86400000 as day'), 'area', 'type').as('entries'))
    .select('day', 'area', 'type')
    .count({ entries: '*' })
    .groupBy(order)
    .orderBy(order);
  const numbers = (rows: Record<string, unknown>[]) => rows.map((row) => ({ ...row, day: Number(row.day), entries: Number(row.entries) }));
  expect(numbers(summary)).toEqual(numbers(grouped));
}

describe('GET /log/count from the day summary', () => {
  it('equals the plain count over random filters after random inserts, deletions and changes', async () => {
    await insertRandom(600, 1);
    expect(await expectSameCounts(150, 5)).toBeGreaterThan(50);
    await expectSummaryOfEntries();

    const ids = (
      await db()('auth_log')
        .where('at', '<', MIDNIGHT + (DAYS + 1) * DAY)
        .pluck('id')
    ).map(Number);
    const [doomed] = sample(fc.subarray(ids), 1, 3);
    for (let start = 0; start < doomed.length; start += 200)
      await db()('auth_log')
        .whereIn('id', doomed.slice(start, start + 200))
        .delete();
    await insertRandom(200, 2);
    await expectSameCounts(150, 6);

    // No write path changes an entry's time or type; the summary follows if one ever does.
    const moved = ids.filter((id) => !doomed.includes(id)).slice(0, 40);
    await db()('auth_log')
      .whereIn('id', moved.slice(0, 20))
      .update({ at: MIDNIGHT + 2 * DAY });
    await db()('auth_log').whereIn('id', moved.slice(20)).update({ type: 'grant.add', area: 'grant' });
    await expectSameCounts(100, 7);
    await expectSummaryOfEntries();
  });

  it('follows retention: pruned entries, and days pruned to nothing, leave the counts', async () => {
    await insertRandom(300, 3);
    const before = await countEvents(db(), {});
    // The cutoff at noon of the third day: two days go, the third in part.
    const pruned = await pruneLog(db(), { retentionDays: 400, now: MIDNIGHT + 2 * DAY + DAY / 2 + 400 * DAY }, { pauseMs: 0, batchSize: 50 });
    expect(pruned).toBeGreaterThan(0);
    // One entry less per pruned entry, and one more: the entry saying how many went.
    expect(await countEvents(db(), {})).toBe(before - pruned! + 1);
    expect(await countEvents(db(), { toMs: MIDNIGHT + 2 * DAY })).toBe(0);
    expect(
      await db()('auth_log_days')
        .where('day', '<', (MIDNIGHT + 2 * DAY) / DAY)
        .count({ n: '*' }),
    ).toEqual([{ n: 0 }]);
    await expectSameCounts(100, 8);
    await expectSummaryOfEntries();

    // A cutoff at an exact midnight, a day later.
    expect(await pruneLog(db(), { retentionDays: 400, now: MIDNIGHT + 4 * DAY + 400 * DAY }, { pauseMs: 0 })).toBeGreaterThan(0);
    await expectSameCounts(100, 9);
    await expectSummaryOfEntries();
  });

  it('counts a collapsed denial as one entry however often it happened', async () => {
    const filter = { type: 'verify.denied', fromMs: Math.floor(Date.now() / DAY) * DAY - DAY };
    const before = await countEvents(db(), filter);
    const audit = { actor: null, ip: '192.0.2.44', userAgent: 'test' };
    for (let i = 0; i < 3; i++)
      await logRepeated(db(), audit, { type: 'verify.denied', event: 'forward auth denied: not logged in, for app counts', group: 'the same group' });
    expect(await db()('auth_log').where({ ip: '192.0.2.44' }).pluck('count')).toEqual([3]);
    expect(await countEvents(db(), filter)).toBe(before + 1);
    expect(await countEvents(db(), {})).toBe(await plainCount({}));
    await expectSummaryOfEntries();
  });

  it('answers through the API, dates being whole UTC days', async () => {
    await insertRandom(200, 4);
    const count = async (filter: { type?: string; from?: string; to?: string }) => (await portal.admin.logs.count(filter)).total;
    expect(await count({ type: 'login.', from: '2025-01-11', to: '2025-01-13' })).toBe(
      await plainCount({ type: 'login.', fromMs: MIDNIGHT + DAY, toMs: MIDNIGHT + 4 * DAY }),
    );
    expect(await count({ from: '2025-01-11T06:00:00Z', to: '2025-01-14T00:00:00Z' })).toBe(
      await plainCount({ fromMs: MIDNIGHT + DAY + DAY / 4, toMs: MIDNIGHT + 4 * DAY + 1 }),
    );
    expect(await count({ type: 'oidc.token.issue', to: '2025-01-12' })).toBe(await plainCount({ type: 'oidc.token.issue', toMs: MIDNIGHT + 3 * DAY }));
    expect(await count({})).toBe(await plainCount({}));
    // The cap counts as before: the smaller of the matches and max.
    expect((await portal.admin.logs.count({ type: 'login.' }, 5)).total).toBe(5);
  });
});
