#!/usr/bin/env node
// The event log at 1,000,000 entries, on SQLite and on PostgreSQL, each portal compiled
// and in a child process of its own, loopback only:
//
//   filtered pages   GET /log/1/20 by user, by type prefix (login., half the rows), by a 30-day range,
//                    each request with a `to` bound of its own so that none is a remembered page
//   counts           GET /log/count by user, by type prefix (exact, and capped at 1,000 as the web
//                    screen asks), by a 30-day range
//   export           GET /log/export?format=csv of all 1,000,000 entries: rows/s and the server's
//                    memory growth (RssAnon sampled every 20 ms, against before the export; the
//                    mapped database file, RssFile, is reported beside it)
//   insert           logEvent one row at a time (as a login does) into the migrated table, against
//                    the same rows into a copy of the table as it was before (no type, actor or
//                    filter indexes), in the same run; and the cost of one login's scrypt for scale
//
// Targets: page p99 < 50 ms, count p99 < 100 ms, export >= 50,000 rows/s with < 100 MiB growth,
// insert cost per login not above today's (reported as the new/old ratio and as a share of a login).
// Environment: BENCH_DURATION (seconds a row, default 5), BENCH_CONNECTIONS (8), BENCH_LOG_ROWS
// (1000000), BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/test), BENCH_DATABASES (sqlite,postgres).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION || 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 8);
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS || 1_000_000);
const PG_URL = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const DATABASES = (process.env.BENCH_DATABASES || 'sqlite,postgres').split(',');
const DAY = 24 * 60 * 60 * 1000;
const USERS = 100_000;
const CLIENTS = 1_000;
const INSERTS = 3_000;

const sha256 = (value) => createHash('sha256').update(value, 'utf8').digest('hex');
const pad = (n, width) => String(n).padStart(width, '0');
const userEmail = (n) => `user${pad(n, 6)}@bench.example.com`;
const ADMIN = 'admin@bench.example.com';

// --- build and children -----------------------------------------------------------------------

function build() {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', 'packages/core', 'packages/server'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building packages/core and packages/server failed');
}

const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function startPortal(databaseUrl, schema) {
  // The default configuration: logging at info, one JSON line a request, to a pipe read below.
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL: ADMIN,
    LOG_LEVEL: '',
    LOG_FORMAT: '',
    WORKERS: '',
    WEB_ROOT: '',
    BENCH_SCHEMA: schema ?? '',
  };
  const child = spawn(process.execPath, [path.join(root, 'bench/forward-auth/portal.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const lines = readline.createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the portal did not start within 120 s')), 120_000);
    child.once('exit', (code) => reject(new Error(`the portal exited with ${code} before it started`)));
    // The first line with a url; the portal's own log lines (warnings) may come before it.
    lines.on('line', (line) => {
      let url;
      try {
        url = JSON.parse(line).url;
      } catch {
        url = undefined;
      }
      if (typeof url === 'string') {
        clearTimeout(timer);
        resolve(url);
      }
    });
  });
  return {
    url,
    pid: child.pid,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      children.delete(child);
    },
  };
}

// --- data -------------------------------------------------------------------------------------

// A day of a portal: mostly sign-ins, some failures and denials, a few admin changes.
const KINDS = [
  ['login.success', 'login with password', 'self'],
  ['login.success', 'login with password', 'self'],
  ['login.success', 'login with password', 'self'],
  ['session.logout', 'logout', 'self'],
  ['login.failure', 'login failed: wrong password', ''],
  ['login.failure', 'login failed: unknown email', ''],
  ['verify.denied', 'forward auth denied: not logged in, for app app-0042', ''],
  ['verify.denied', 'forward auth denied: may not use app app-0007', 'self'],
  ['grant.add', 'granted app app-0042 to', 'admin'],
  ['app.update', 'updated app app-0042', 'admin'],
  ['invite.create', 'invited someone to client', 'admin'],
  ['apikey.create', 'created API key apikey-AbCd…wxyz', 'self'],
];
const AGENTS = ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36', 'toolsctl/0.1.0', 'curl/8.5.0'];

async function insertRows(db, table, columns, rows) {
  const per = Math.floor(12_000 / columns.length);
  for (let start = 0; start < rows.length; start += per) {
    const chunk = rows.slice(start, start + per);
    await db.raw(
      `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ')}`,
      chunk.flat(),
    );
  }
}

function logRow(i, now) {
  const user = 1 + ((i * 7919) % USERS);
  const [type, text, who] = KINDS[i % KINDS.length];
  const email = userEmail(user);
  return [
    now - 365 * DAY + Math.floor((i * 365 * DAY) / LOG_ROWS),
    type,
    type.split('.')[0],
    `Client ${pad(1 + (user % CLIENTS), 4)}`,
    email,
    who === 'self' ? email : who === 'admin' ? ADMIN : '',
    text.endsWith(' to') || text.endsWith('client') ? `${text} ${email}` : text,
    `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    AGENTS[i % AGENTS.length],
  ];
}

const LOG_COLUMNS = ['at', 'type', 'area', 'client', 'user', 'actor', 'event', 'ip', 'user_agent'];

/** The admin and a session, and LOG_ROWS log entries over the last year. Answers the admin's token. */
async function seed(db, now) {
  const token = randomBytes(32).toString('base64url');
  const sqlite = db.client.config.client !== 'pg';
  if (sqlite) for (const pragma of ['journal_mode = OFF', 'synchronous = OFF', 'cache_size = -262144']) await db.raw(`PRAGMA ${pragma}`);
  await db.transaction(async (trx) => {
    await insertRows(trx, 'clients', ['name', 'created_at'], [['Admin', now]]);
    const clientId = (await trx('clients').where({ name: 'Admin' }).first('id')).id;
    await insertRows(trx, 'users', ['email', 'name', 'client_id', 'created_at'], [[ADMIN, 'Admin', clientId, now]]);
    const userId = (await trx('users').where({ email: ADMIN }).first('id')).id;
    await insertRows(
      trx,
      'sessions',
      ['token_hash', 'user_id', 'created_at', 'last_seen_at', 'expires_at'],
      [[sha256(token), userId, now, now, now + 365 * DAY]],
    );
    for (let start = 0; start < LOG_ROWS; start += 10_000) {
      const rows = [];
      for (let i = start; i < Math.min(LOG_ROWS, start + 10_000); i++) rows.push(logRow(i, now));
      await insertRows(trx, 'auth_log', LOG_COLUMNS, rows);
    }
  });
  if (!sqlite) await db.raw('vacuum analyze auth_log');
  else await db.raw('analyze');
  return token;
}

// --- measuring --------------------------------------------------------------------------------

const BUCKET_MS = 0.01;
/** `pathFor(i)`, when given, makes the path of the i-th request (the first is `url`'s). */
function load(url, headers, seconds, pathFor) {
  const histogram = new Uint32Array(200_001);
  let count = 0;
  let bad = 0;
  let sent = 0;
  const requests = pathFor ? [{ setupRequest: (request) => ({ ...request, path: pathFor(sent++) }) }] : undefined;
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: CONNECTIONS, duration: seconds, requests }, (error, result) => {
      if (error) return reject(error);
      const percentile = (p) => {
        const rank = Math.ceil((p / 100) * count);
        let seen = 0;
        for (let i = 0; i < histogram.length; i++) if ((seen += histogram[i]) >= rank) return (i + 1) * BUCKET_MS;
        return Infinity;
      };
      resolve({ rps: count / result.duration, p50: percentile(50), p99: percentile(99), count, bad: bad + result.errors + result.timeouts });
    });
    instance.on('response', (_client, status, _bytes, ms) => {
      count++;
      histogram[Math.min(200_000, Math.floor(ms / BUCKET_MS))]++;
      if (status !== 200) bad++;
    });
  });
}

// CPU seconds the server process has used: a per-request cost that hardly depends on the load
// other processes put on the machine, unlike latency.
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// RssAnon is the process's own memory (heap, buffers); RssFile counts SQLite's memory-mapped
// database pages, which a full read maps in and the kernel may drop at any time.
const statusKiB = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
const rssKiB = (pid) => statusKiB(pid, 'RssAnon');

async function exportRun(portal, token) {
  const before = rssKiB(portal.pid);
  const fileBefore = statusKiB(portal.pid, 'RssFile');
  let peak = before;
  let filePeak = fileBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKiB(portal.pid));
    filePeak = Math.max(filePeak, statusKiB(portal.pid, 'RssFile'));
  }, 20);
  const started = performance.now();
  const cpuBefore = cpuSeconds(portal.pid);
  const response = await fetch(`${portal.url}/api/auth/v1/log/export?format=csv`, { headers: { cookie: `accesstoken=${token}` } });
  if (response.status !== 200) throw new Error(`export answered ${response.status}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(portal.pid) - cpuBefore;
  clearInterval(sampler);
  peak = Math.max(peak, rssKiB(portal.pid));
  return {
    rows: lines - 1,
    seconds,
    rowsPerSecond: (lines - 1) / seconds,
    rowsPerCpuSecond: (lines - 1) / cpu,
    mib: bytes / 2 ** 20,
    growthMiB: (peak - before) / 1024,
    fileGrowthMiB: (filePeak - fileBefore) / 1024,
  };
}

/** µs per single-row insert: through logEvent into the migrated table, and into the table as it was before. */
async function insertCost(db) {
  const { logEvent } = await import(path.join(root, 'packages/server/dist/services/log/audit.js'));
  await db.schema.dropTableIfExists('auth_log_before');
  await db.schema.createTable('auth_log_before', (table) => {
    table.increments('id');
    table.bigInteger('at').notNullable();
    table.string('client', 200).notNullable().defaultTo('');
    table.string('user', 254).notNullable().defaultTo('');
    table.string('event', 1000).notNullable();
    table.string('ip', 64).notNullable().defaultTo('');
    table.string('user_agent', 512).notNullable().defaultTo('');
  });
  await db.raw('insert into auth_log_before (at, client, "user", event, ip, user_agent) select at, client, "user", event, ip, user_agent from auth_log');
  const actor = { email: userEmail(42), client: { name: 'Client 0042' } };
  const audit = { actor, ip: '10.1.2.3', userAgent: AGENTS[0] };
  const time = async (fn) => {
    for (let i = 0; i < 200; i++) await fn(i); // warm-up
    const started = performance.now();
    for (let i = 0; i < INSERTS; i++) await fn(i);
    return ((performance.now() - started) * 1000) / INSERTS;
  };
  // Alternated twice, so that neither gets only the warmer cache.
  const results = { now: [], before: [] };
  for (let round = 0; round < 2; round++) {
    results.before.push(
      await time(() =>
        db('auth_log_before').insert({
          at: Date.now(),
          client: 'Client 0042',
          user: actor.email,
          event: 'login with password',
          ip: audit.ip,
          user_agent: audit.userAgent,
        }),
      ),
    );
    results.now.push(await time(() => logEvent(db, audit, { type: 'login.success', event: 'login with password' })));
  }
  await db.schema.dropTableIfExists('auth_log_before');
  const best = (values) => Math.min(...values);
  return { nowUs: best(results.now), beforeUs: best(results.before) };
}

// --- one database -----------------------------------------------------------------------------

async function benchDatabase(name, url, schema) {
  const { openDatabase, migrateToLatest } = await import(path.join(root, 'packages/server/dist/index.js'));
  const db = openDatabase({ url, schema });
  const now = Date.now();
  const results = { name };
  try {
    await migrateToLatest(db);
    const started = performance.now();
    const token = await seed(db, now);
    results.seedSeconds = (performance.now() - started) / 1000;
    console.error(`${name}: seeded ${LOG_ROWS.toLocaleString('en')} log entries in ${results.seedSeconds.toFixed(1)} s`);
    const portal = await startPortal(url, schema);
    try {
      const headers = { cookie: `accesstoken=${token}` };
      const day = (ms) => new Date(ms).toISOString().slice(0, 10);
      const byUser = `user=${encodeURIComponent(userEmail(4242))}`;
      const rangeFrom = `from=${day(now - 200 * DAY)}`;
      const rangeLastDay = now - 171 * DAY;
      const range = `${rangeFrom}&to=${day(rangeLastDay)}`;
      // The server remembers a page until the database changes, and nothing is written during a
      // row: each page request carries a `to` bound of its own (one of 1,000, more than the server
      // remembers), past every entry, or in the last second of the range's last day, so that every
      // request reads its page.
      const toBound = (i, dayMs) => `to=${day(dayMs)}T23:59:59.${String(i % 1000).padStart(3, '0')}Z`;
      const pageOf =
        (filter, lastDay = now + 400 * DAY) =>
        (i) =>
          `/api/auth/v1/log/1/20?${filter}&${toBound(i, lastDay)}`;
      const targets = [
        ['page', 'by user', `/log/1/20?${byUser}`, pageOf(byUser)],
        ['page', 'by type prefix login.', '/log/1/20?type=login.', pageOf('type=login.')],
        ['page', 'by a 30-day range', `/log/1/20?${range}`, pageOf(rangeFrom, rangeLastDay)],
        ['count', 'by user', `/log/count?${byUser}`],
        ['count', 'by type prefix login.', '/log/count?type=login.'],
        ['count', "by type prefix login., max=1000 (the web screen's)", '/log/count?type=login.&max=1000'],
        ['count', 'by a 30-day range', `/log/count?${range}`],
      ];
      results.loads = [];
      for (const [kind, what, pathname, pathFor] of targets) {
        const target = `${portal.url}/api/auth/v1${pathname}`;
        const sample = await (await fetch(target, { headers })).json();
        await load(target, headers, 1, pathFor);
        const cpuBefore = cpuSeconds(portal.pid);
        const measured = await load(target, headers, DURATION, pathFor);
        measured.cpuUs = ((cpuSeconds(portal.pid) - cpuBefore) * 1e6) / measured.count;
        const size = Array.isArray(sample) ? `${sample.length} entries` : `total ${sample.total}`;
        results.loads.push({ kind, what, size, ...measured });
        console.error(`${name}: ${kind} ${what}: p99 ${measured.p99.toFixed(2)} ms (${size})`);
      }
      results.export = await exportRun(portal, token);
      console.error(`${name}: export ${results.export.rows} rows in ${results.export.seconds.toFixed(1)} s`);
    } finally {
      await portal.stop();
    }
    results.insert = await insertCost(db);
  } finally {
    await db.destroy();
  }
  return results;
}

// --- main -------------------------------------------------------------------------------------

async function main() {
  build();
  const all = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-log-bench-'));
  try {
    if (DATABASES.includes('sqlite')) all.push(await benchDatabase('SQLite', `sqlite:${path.join(tmp, 'log.db')}`));
    if (DATABASES.includes('postgres')) {
      const schema = `bench_log_${process.pid}_${Date.now().toString(36)}`;
      const { openDatabase } = await import(path.join(root, 'packages/server/dist/index.js'));
      const admin = openDatabase({ url: PG_URL });
      try {
        await admin.raw(`create schema "${schema}"`);
        all.push(await benchDatabase('PostgreSQL', PG_URL, schema));
      } catch (error) {
        if (process.env.CI === 'true') throw error;
        console.error(`PostgreSQL skipped: ${error.message}`);
      } finally {
        await admin.raw(`drop schema if exists "${schema}" cascade`).catch(() => {});
        await admin.destroy();
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  // One login's password check at the default cost, for scale.
  const scryptStarted = performance.now();
  scryptSync('bench password', randomBytes(16), 64, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 2 ** 20 });
  const loginMs = performance.now() - scryptStarted;

  let failed = false;
  const mark = (ok) => {
    failed ||= !ok;
    return ok ? '✓' : '✗';
  };
  const lines = [
    '| database | what | answer | requests/s | p50 ms | p99 ms | server CPU µs/request | target | met |',
    '|---|---|---|---:|---:|---:|---:|---|---|',
  ];
  for (const result of all) {
    for (const row of result.loads) {
      const limit = row.kind === 'page' ? 50 : 100;
      const ok = row.p99 < limit && row.bad === 0;
      lines.push(
        `| ${result.name} | ${row.kind === 'page' ? 'GET /log/1/20' : 'GET /log/count'} ${row.what} | ${row.size} | ${Math.round(row.rps)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${Math.round(row.cpuUs)} | p99 < ${limit} ms | ${mark(ok)}${row.bad ? ` ${row.bad} failed` : ''} |`,
      );
    }
    const ex = result.export;
    lines.push(
      `| ${result.name} | GET /log/export?format=csv, all entries | ${ex.rows.toLocaleString('en')} rows, ${ex.mib.toFixed(0)} MiB in ${ex.seconds.toFixed(1)} s | ${Math.round(ex.rowsPerSecond).toLocaleString('en')} rows/s | | | ${Math.round(ex.rowsPerCpuSecond).toLocaleString('en')} rows/CPU-s | ≥ 50,000 rows/s | ${mark(ex.rowsPerSecond >= 50_000 && ex.rows === LOG_ROWS)} |`,
    );
    lines.push(
      `| ${result.name} | server memory growth during the export (RssAnon; mapped database pages, RssFile, grew ${ex.fileGrowthMiB.toFixed(0)} MiB) | ${ex.growthMiB.toFixed(1)} MiB | | | | | < 100 MiB | ${mark(ex.growthMiB < 100)} |`,
    );
    const ins = result.insert;
    const share = (ins.nowUs / 1000 / loginMs) * 100;
    lines.push(
      `| ${result.name} | one event insert (a login's), now vs a plain table without indexes or day summary | ${ins.nowUs.toFixed(0)} µs vs ${ins.beforeUs.toFixed(0)} µs (${(ins.nowUs / ins.beforeUs).toFixed(2)}×); ${share.toFixed(2)} % of a login | | | | | < 1 % of a login | ${mark(share < 1)} |`,
    );
  }
  const cpus = os.cpus();
  console.log(
    [
      `event-log bench, ${new Date().toISOString()}`,
      `machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, Node ${process.version}; autocannon ${CONNECTIONS} connections, ${DURATION} s a row after 1 s warm-up; load average at the end ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
      `${LOG_ROWS.toLocaleString('en')} entries over a year, ${USERS.toLocaleString('en')} users; a login's scrypt (logN 17) took ${loginMs.toFixed(0)} ms here`,
      '',
      ...lines,
    ].join('\n'),
  );
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
