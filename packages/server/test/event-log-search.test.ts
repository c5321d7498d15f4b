/**
 * The event log's filters, count, export and retention (docs/event-log.md), on the database of the
 * run (SQLite, or PostgreSQL in the server-postgres project). Rows are written straight into the
 * table with fixed times, each test with its own unique names, so the portal's own entries
 * (bootstrap, logins) never match a filter.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import type { LogEntry, LogFilter } from '@tools-portal/core';
import { pruneLog } from '../src/services/log/log-retention.js';
import { EXPORT_BATCH } from '../src/services/log/log-export.js';
import { describe, expect, it } from 'vitest';
import { failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();
const db = () => portal.deps.db;

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 5, 15, 12, 0, 0); // 2026-06-15T12:00:00Z

interface Row {
  at: number;
  type: string;
  client?: string;
  user?: string;
  actor?: string;
  event?: string;
  ip?: string;
  user_agent?: string;
}

async function insert(rows: Row[]): Promise<void> {
  const full = rows.map((row) => ({
    client: '',
    user: '',
    actor: '',
    event: 'something happened',
    ip: '10.0.0.1',
    user_agent: 'test',
    ...row,
    area: row.type.split('.')[0],
  }));
  for (let start = 0; start < full.length; start += 500) await db()('auth_log').insert(full.slice(start, start + 500));
}

/** A small world of its own: two users of one client, an admin actor, six entries a day apart. */
async function world() {
  const tag = unique('w').toLowerCase();
  const client = `Globex ${tag}`;
  const ann = `ann-${tag}@example.com`;
  const bob = `bob-${tag}@example.com`;
  const admin = `boss-${tag}@example.com`;
  await insert([
    { at: T0, type: 'login.success', client, user: ann, actor: ann, event: `login with password ${tag}` },
    { at: T0 + DAY, type: 'login.failure', client, user: bob, event: `login failed: wrong password ${tag}` },
    { at: T0 + 2 * DAY, type: 'invite.create', client, user: bob, actor: admin, event: `invited ${bob} to client ${client}` },
    { at: T0 + 3 * DAY, type: 'grant.add', client, user: ann, actor: admin, event: `granted app wiki_100% to ${ann}` },
    { at: T0 + 4 * DAY, type: 'grant.remove', client, user: ann, actor: admin, event: `revoked app wiki from ${ann}` },
    { at: T0 + 5 * DAY, type: 'login.blocked', client, user: bob, event: `login blocked: too many failed logins ${tag}` },
  ]);
  return { tag, client, ann, bob, admin };
}

const types = (entries: LogEntry[]) => entries.map((entry) => entry.type);

describe('filters of GET /log/{page}/{perPage} and GET /log/count', () => {
  it('filters by user, client and actor, exactly and in any case', async () => {
    const { client, ann, bob, admin } = await world();
    const page = (filter: LogFilter) => portal.admin.logs.page(1, 100, filter);
    expect(types(await page({ user: ann }))).toEqual(['grant.remove', 'grant.add', 'login.success']);
    expect(types(await page({ user: bob.toUpperCase() }))).toEqual(['login.blocked', 'invite.create', 'login.failure']);
    expect(await page({ user: ann.slice(0, -1) })).toEqual([]);
    expect(await page({ client: client.toLowerCase() })).toHaveLength(6);
    expect(types(await page({ actor: admin }))).toEqual(['grant.remove', 'grant.add', 'invite.create']);
    expect(types(await page({ actor: admin, user: ann }))).toEqual(['grant.remove', 'grant.add']);
    expect(await portal.admin.logs.count({ client })).toEqual({ total: 6 });
    expect(await portal.admin.logs.count({ actor: admin, user: bob })).toEqual({ total: 1 });
  });

  it('filters by type, exact or a prefix ending in a dot', async () => {
    const { client } = await world();
    const page = (type: string) => portal.admin.logs.page(1, 100, { client, type });
    expect(types(await page('login.'))).toEqual(['login.blocked', 'login.failure', 'login.success']);
    expect(types(await page('grant.'))).toEqual(['grant.remove', 'grant.add']);
    expect(types(await page('login.failure'))).toEqual(['login.failure']);
    expect(await page('login')).toEqual([]);
    expect(await page('logi.')).toEqual([]);
    expect(await portal.admin.logs.count({ client, type: 'login.' })).toEqual({ total: 3 });
  });

  it('finds a piece of the event text in any case, % and _ being plain characters', async () => {
    const { client, tag } = await world();
    expect(types(await portal.admin.logs.page(1, 100, { client, q: 'WRONG PASSWORD' }))).toEqual(['login.failure']);
    expect(types(await portal.admin.logs.page(1, 100, { client, q: 'wiki_100%' }))).toEqual(['grant.add']);
    expect(await portal.admin.logs.page(1, 100, { client, q: 'wiki_1000' })).toEqual([]);
    expect(await portal.admin.logs.count({ q: `password ${tag}` })).toEqual({ total: 2 });
  });

  it('filters by dates (whole UTC days) and by times, both ends inclusive', async () => {
    const { client } = await world();
    const page = (filter: LogFilter) => portal.admin.logs.page(1, 100, { client, ...filter });
    expect(types(await page({ from: '2026-06-16', to: '2026-06-17' }))).toEqual(['invite.create', 'login.failure']);
    expect(types(await page({ from: '2026-06-19' }))).toEqual(['grant.remove', 'login.blocked'].reverse());
    expect(types(await page({ to: '2026-06-15' }))).toEqual(['login.success']);
    expect(types(await page({ from: '2026-06-16T12:00:00Z', to: '2026-06-17T12:00:00Z' }))).toEqual(['invite.create', 'login.failure']);
    expect(types(await page({ from: '2026-06-16T12:00:00.001Z', to: '2026-06-17T14:00:00+02:00' }))).toEqual(['invite.create']);
    expect(await portal.admin.logs.count({ client, from: '2026-06-18', to: '2026-06-18' })).toEqual({ total: 1 });
    expect(await portal.admin.logs.count({ client, from: '2026-06-18', type: 'grant.', actor: 'nobody@example.com' })).toEqual({ total: 0 });
  });

  it('pages the filtered entries, newest first', async () => {
    const { client } = await world();
    const first = await portal.admin.logs.page(1, 4, { client });
    const second = await portal.admin.logs.page(2, 4, { client });
    expect([...types(first), ...types(second)]).toEqual(['login.blocked', 'grant.remove', 'grant.add', 'invite.create', 'login.failure', 'login.success']);
  });

  it('answers 400 naming the parameter for unknown parameters and bad values, never 500', async () => {
    const bad: Array<[string, string]> = [
      ['?usr=ann', 'usr'],
      ['?user=a&user=b', 'user'],
      ['?type=Login.', 'type'],
      ['?type=login..', 'type'],
      ['?type=%25', 'type'],
      [`?type=${'a'.repeat(65)}`, 'type'],
      [`?q=${'x'.repeat(201)}`, 'q'],
      ['?q=a%00b', 'q'],
      ['?from=yesterday', 'from'],
      ['?from=2026-02-31', 'from'],
      ['?to=2026-13-01', 'to'],
      ['?to=2026-06-15T25:00:00Z', 'to'],
      ['?from=2026-06-16&to=2026-06-15', 'to'],
      ['?client[]=x', 'client[]'],
      ['?format=csv', 'format'],
    ];
    // max caps a count; the page has no such parameter.
    const badMax: Array<[string, string]> = [
      ['/log/count?max=0', 'max'],
      ['/log/count?max=many', 'max'],
      ['/log/count?max=1.5', 'max'],
      ['/log/count?max=-3', 'max'],
      ['/log/count?max=10000000', 'max'],
      ['/log/count?max=1&max=2', 'max'],
      ['/log/1/20?max=5', 'max'],
    ];
    for (const [path, field] of badMax) {
      const response = await portal.fetch(`/api/auth/v1${path}`, { headers: { authorization: `Bearer ${portal.admin.token}` } });
      const body = (await response.json()) as { error: { code: string; details: { field: string } } };
      expect({ path, status: response.status, field: body.error.details.field }).toEqual({ path, status: 400, field });
    }
    for (const [query, field] of bad) {
      for (const path of ['/log/1/20', '/log/count']) {
        const response = await portal.fetch(`/api/auth/v1${path}${query}`, { headers: { authorization: `Bearer ${portal.admin.token}` } });
        const body = (await response.json()) as { error: { code: string; details: { field: string } } };
        expect({ path, query, status: response.status, field: body.error.details.field }).toEqual({ path, query, status: 400, field });
      }
    }
    const exported = await portal.fetch('/api/auth/v1/log/export?format=xlsx', { headers: { authorization: `Bearer ${portal.admin.token}` } });
    expect(exported.status).toBe(400);
    expect(((await exported.json()) as { error: { details: { field: string } } }).error.details.field).toBe('format');
    // An empty value is no filter (a form's blank field).
    expect(await portal.admin.logs.page(1, 20, { user: '' })).toHaveLength(20);
  });

  it('is admin-only, like the page', async () => {
    const { api } = await portal.createUser();
    expect(await failure(api.logs.count())).toMatchObject({ code: 'forbidden' });
    expect(await failure(api.logs.export('csv'))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.logs.export('jsonl'))).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('GET /log/export', () => {
  it('streams CSV by RFC 4180 (read back with csv-parse) and JSON Lines with the same entries, newest first', async () => {
    const { client, ann } = await world();
    await insert([
      {
        at: T0 + 6 * DAY,
        type: 'app.update',
        client,
        user: ann,
        actor: ann,
        event: 'updated app "wiki", with\r\na new line',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64) "quoted"',
      },
    ]);
    const csvAnswer = await portal.admin.logs.export('csv', { client });
    expect(csvAnswer.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(csvAnswer.headers.get('content-disposition')).toMatch(/^attachment; filename="event-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await csvAnswer.text();
    expect(text.startsWith('timestamp,type,client,user,actor,event,ip,userAgent,count\r\n')).toBe(true);
    const records = parseCsv(text, { columns: true }) as Array<Record<string, string>>;
    const page = await portal.admin.logs.page(1, 100, { client });
    expect(records).toEqual(
      page.map((entry) => ({
        timestamp: entry.timestamp,
        type: entry.type,
        client: entry.client,
        user: entry.user,
        actor: entry.actor,
        event: entry.event,
        ip: entry.ip,
        userAgent: entry.userAgent,
        count: String(entry.count),
      })),
    );
    expect(records[0].event).toBe('updated app "wiki", with\r\na new line');

    const jsonl = await (await portal.admin.logs.export('jsonl', { client })).text();
    const lines = jsonl
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual(page.map(({ id: _id, ...entry }) => entry));
    expect(Object.keys(lines[0])).toEqual(['timestamp', 'type', 'client', 'user', 'actor', 'event', 'ip', 'userAgent', 'count']);
  });

  it("prefixes cells that a spreadsheet would run as a formula with '", async () => {
    const tag = unique('inject');
    const starts = ['=HYPERLINK("http://evil.example/")', '+1+1', '-2+3', '@SUM(A1)', '\tTAB', '\rCR'];
    await insert(
      starts.map((event, index) => ({ at: T0 + index, type: 'login.failure', client: tag, user: `=${tag}`, actor: `@${tag}`, event, user_agent: '-ua' })),
    );
    const text = await (await portal.admin.logs.export('csv', { client: tag })).text();
    const records = parseCsv(text, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((record) => record.event)).toEqual(starts.map((event) => `'${event}`).reverse());
    for (const record of records) {
      expect(record.user).toBe(`'=${tag}`);
      expect(record.actor).toBe(`'@${tag}`);
      expect(record.userAgent).toBe("'-ua");
      expect(record.client).toBe(tag);
    }
    // JSON Lines is data, not a spreadsheet: unchanged.
    const jsonl = (await (await portal.admin.logs.export('jsonl', { client: tag })).text()).trimEnd().split('\n');
    expect(JSON.parse(jsonl[0]).event).toBe('\rCR');
  });

  it('exports every entry across its keyset batches once, ties in time included', async () => {
    const tag = unique('many');
    // 4,500 entries over 75 distinct times (60 entries share each): batches (EXPORT_BATCH, 250) end inside ties.
    expect(EXPORT_BATCH % 60).not.toBe(0);
    await insert(Array.from({ length: 4500 }, (_, i) => ({ at: T0 + Math.floor(i / 60) * 1000, type: 'verify.denied', client: tag, event: `entry ${i}` })));
    const text = await (await portal.admin.logs.export('csv', { client: tag })).text();
    const events = (parseCsv(text, { columns: true }) as Array<Record<string, string>>).map((record) => record.event);
    expect(events).toHaveLength(4500);
    expect(new Set(events).size).toBe(4500);
    expect(events[0]).toBe('entry 4499');
    expect(events[4499]).toBe('entry 0');
    expect(await portal.admin.logs.count({ client: tag })).toEqual({ total: 4500 });
    // A capped count (the web's pager needs 1,000) stops at max, and is exact below it.
    expect(await portal.admin.logs.count({ client: tag }, 1000)).toEqual({ total: 1000 });
    expect(await portal.admin.logs.count({ client: tag }, 4500)).toEqual({ total: 4500 });
    expect(await portal.admin.logs.count({ client: tag }, 1_000_000)).toEqual({ total: 4500 });
    expect(await portal.admin.logs.count({ client: tag, q: 'entry 44' }, 5)).toEqual({ total: 5 });
  });
});

describe('LOG_RETENTION_DAYS', () => {
  const NOW = Date.UTC(2027, 0, 10, 3, 0, 0);

  it('deletes entries older than the retention in batches, logs one entry with how many, and runs once a day', async () => {
    const tag = unique('old');
    await insert([
      ...Array.from({ length: 23 }, (_, i) => ({ at: NOW - 401 * DAY - i, type: 'login.success', client: tag })),
      { at: NOW - 400 * DAY - 1, type: 'login.success', client: tag },
      { at: NOW - 399 * DAY, type: 'login.failure', client: tag },
      { at: NOW - DAY, type: 'login.failure', client: tag },
    ]);
    const before = await portal.admin.logs.count();
    // Everything else in this portal's log is recent, so it stays.
    expect(await pruneLog(db(), { retentionDays: 400, now: NOW }, { batchSize: 5, pauseMs: 0, holder: 'a' })).toBe(24);
    expect(await portal.admin.logs.count({ client: tag })).toEqual({ total: 2 });
    const [entry] = await portal.admin.logs.page(1, 1, { type: 'log.prune' });
    expect(entry).toMatchObject({ type: 'log.prune', actor: '', event: 'deleted 24 log entries older than 400 days' });
    expect((await portal.admin.logs.count()).total).toBe(before.total - 24 + 1);
    // Not due again within a day, by this instance or another.
    await insert([{ at: NOW - 500 * DAY, type: 'login.success', client: tag }]);
    expect(await pruneLog(db(), { retentionDays: 400, now: NOW + 60_000 }, { holder: 'a' })).toBeNull();
    expect(await pruneLog(db(), { retentionDays: 400, now: NOW + 60_000 }, { holder: 'b' })).toBeNull();
    expect(await pruneLog(db(), { retentionDays: 400, now: NOW + DAY }, { holder: 'b', pauseMs: 0 })).toBe(1);
    expect(await pruneLog(db(), { retentionDays: 0, now: NOW + 10 * DAY }, { holder: 'b' })).toBeNull();
  });

  it('runs on one instance at a time', async () => {
    const tag = unique('race');
    await insert(Array.from({ length: 30 }, (_, i) => ({ at: NOW + 30 * DAY - 401 * DAY - i, type: 'login.success', client: tag })));
    const runs = await Promise.all(
      ['x', 'y', 'z'].map((holder) => pruneLog(db(), { retentionDays: 400, now: NOW + 30 * DAY }, { batchSize: 4, pauseMs: 1, holder })),
    );
    // (31 with the first test's entry that has aged past the retention by then.)
    expect(runs.filter((removed) => removed !== null)).toEqual([31]);
    expect(await portal.admin.logs.count({ client: tag })).toEqual({ total: 0 });
  });
});
