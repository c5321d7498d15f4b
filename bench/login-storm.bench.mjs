#!/usr/bin/env node
// Logins must not stall other requests (docs/security.md, the password-hashing pool): the API
// (GET /user/me) and a static file (GET /auth/) measured quiet, then while 20 logins hash at the
// default scrypt cost (logN 17) without pause. Target: p99 < 100 ms while the logins hash.
//
// Environment: BENCH_DURATION (seconds a row, default 10), BENCH_CONNECTIONS (8),
// PASSWORD_HASH_CONCURRENCY / PASSWORD_HASH_QUEUE passed on to the portal.
// Exit code 1 when a row saw a non-2xx answer or missed its target.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 8);
const LOGINS = 20;
const P99_TARGET_MS = 100;
const ADMIN_EMAIL = 'admin@bench.example.com';
const ADMIN_PASSWORD = 'bench-steady-kettle-1';

function build() {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', 'packages/core', 'packages/server'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building packages/core and packages/server failed');
  if (!fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) {
    const web = spawnSync('npm', ['run', 'build', '-w', '@tools-portal/web'], { cwd: root, stdio: 'inherit' });
    if (web.status !== 0) throw new Error('building the web portal failed');
  }
}

async function startPortal(env) {
  const child = spawn(process.execPath, [path.join(root, 'bench/forward-auth/portal.mjs')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGKILL'));
  const lines = readline.createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the portal exited with ${code}`)));
    // The portal's log shares stdout (JSON lines at info, read to the end): the line with a url.
    lines.on('line', (line) => {
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed?.url === 'string' && parsed.level === undefined) resolve(parsed.url);
    });
  });
  return { url, stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) };
}

function load(url, headers) {
  const latencies = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION }, (error, result) => {
      if (error) return reject(error);
      latencies.sort((a, b) => a - b);
      const at = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)];
      resolve({ rps: latencies.length / DURATION, p50: at(50), p99: at(99), non2xx: result.non2xx, errors: result.errors + result.timeouts });
    });
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

/** Keeps `count` logins (wrong passwords) hashing until stop() is called; answers their outcomes. */
function storm(url, count) {
  let running = true;
  const outcomes = { 401: 0, other: {} };
  const loop = async (worker) => {
    for (let attempt = 0; running; attempt++) {
      const response = await fetch(`${url}/api/auth/v1/validatepassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Email: `storm-${worker}-${attempt}@bench.example.com`, Password: 'a-wrong-password' }),
      });
      await response.arrayBuffer();
      if (response.status === 401) outcomes[401]++;
      else outcomes.other[response.status] = (outcomes.other[response.status] ?? 0) + 1;
    }
  };
  const workers = Array.from({ length: count }, (_, worker) => loop(worker));
  return {
    async stop() {
      running = false;
      await Promise.all(workers);
      return outcomes;
    },
  };
}

// The pool as configured by default, a pool of one, and no bound (every hash at once on libuv's
// four threads, as before the pool): the last is the baseline of the same run.
const SETUPS = [
  ['pool of 2 (default)', '2', true],
  ['pool of 1', '1', true],
  ['no pool (baseline)', '64', false],
];

async function measureSetup(tmp, label, concurrency, withTarget, rows) {
  const portal = await startPortal({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(tmp, `portal-${concurrency}.db`)}`,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: '',
    LOG_FORMAT: '',
    SCRYPT_LOGN: '17',
    WEB_ROOT: '',
    LOGIN_FAILURES_PER_ADDRESS: '100000',
    PASSWORD_HASH_CONCURRENCY: concurrency,
    PASSWORD_HASH_QUEUE: '64',
  });
  try {
    const login = await fetch(`${portal.url}/api/auth/v1/validatepassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD }),
    });
    const { accesstoken } = await login.json();
    const api = [`${portal.url}/api/auth/v1/user/me`, { authorization: `Bearer ${accesstoken}` }];
    const file = [`${portal.url}/auth/`, {}];
    if (withTarget) {
      rows.push([`${label}: GET /user/me, quiet`, await load(...api)]);
      rows.push([`${label}: GET /auth/ (static), quiet`, await load(...file)]);
    }
    for (const [what, target] of [
      ['GET /user/me', api],
      ['GET /auth/ (static)', file],
    ]) {
      const logins = storm(portal.url, LOGINS);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const result = await load(...target);
      const outcomes = await logins.stop();
      rows.push([
        `${label}: ${what} while ${LOGINS} logins hash (${outcomes[401]} checked, others ${JSON.stringify(outcomes.other)})`,
        result,
        withTarget ? P99_TARGET_MS : undefined,
      ]);
    }
  } finally {
    await portal.stop();
  }
}

async function main() {
  build();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-bench-'));
  const rows = [];
  try {
    for (const [label, concurrency, withTarget] of SETUPS) await measureSetup(tmp, label, concurrency, withTarget, rows);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  let failed = false;
  const cpus = os.cpus();
  console.log(`login-storm bench, ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, Node ${process.version}; autocannon ${CONNECTIONS} connections, ${DURATION} s a row; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('| what | requests/s | p50 ms | p99 ms | target | met |');
  console.log('|---|---:|---:|---:|---|---|');
  for (const [label, result, target] of rows) {
    const problems = [];
    if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx`);
    if (result.errors > 0) problems.push(`${result.errors} errors`);
    if (target && result.p99 >= target) problems.push(`p99 not under ${target} ms`);
    failed ||= problems.length > 0;
    console.log(
      `| ${label} | ${Math.round(result.rps)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${target ? `p99 < ${target} ms` : ''} | ${problems.length ? `✗ ${problems.join('; ')}` : target ? '✓' : ''} |`,
    );
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
