#!/usr/bin/env node
// Applying a setup document of 2,000 objects (docs/cli.md, The portal's setup as a file) on
// SQLite: the compiled portal in a child process of its own, loopback only, a fresh database.
//
//   plan (empty portal)   POST /config/plan of the whole document: 2,000 changes
//   apply                 POST /config/apply of it: one transaction, every change through its service
//   plan (applied)        POST /config/plan again: nothing to change
//   export                GET /config
//
// The document: 20 clients, 300 apps, 100 teams, 600 memberships, 900 grants (two teams and one
// user per app), 80 invitations = 2,000 objects; its 50 users are made before (not timed).
// Target: apply in under 10 s (the bound), reported as the ratio time / 10 s.
// Environment: BENCH_SETUP_USERS (50).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USERS = Number(process.env.BENCH_SETUP_USERS || 50);
const TARGET_MS = 10_000;
const ADMIN = 'admin@bench.example.com';
const PASSWORD = 'quiet harbour lantern 7';

function build() {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-b', 'packages/core', 'packages/server'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building packages/core and packages/server failed');
}

const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

async function startPortal(databaseUrl) {
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL: ADMIN,
    ADMIN_PASSWORD: PASSWORD,
    SCRYPT_LOGN: '10',
    // The default configuration: request lines at info, which the readline below drains.
    LOG_LEVEL: '',
    WEB_ROOT: '',
  };
  const child = spawn(process.execPath, [path.join(root, 'bench/forward-auth/portal.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const lines = readline.createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the portal did not start within 120 s')), 120_000);
    child.once('exit', (code) => reject(new Error(`the portal exited with ${code} before it started`)));
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line);
        if (parsed.url) {
          clearTimeout(timer);
          resolve(parsed.url);
        }
      } catch {
        // a log line
      }
    });
  });
  return { url, child };
}

function documentOf(users) {
  const clients = Array.from({ length: 20 }, (_, i) => ({ name: `Client ${i}` }));
  const teams = Array.from({ length: 100 }, (_, i) => ({
    name: `Team ${i}`,
    description: `team number ${i}`,
    members: Array.from({ length: 6 }, (_, k) => ({ email: users[(i * 6 + k) % users.length] })),
  }));
  const apps = Array.from({ length: 300 }, (_, i) => ({
    name: `app-${i}`,
    url: `https://app-${i}.bench.example.com/`,
    description: `app number ${i}`,
    category: `Category ${i % 10}`,
    roles: ['viewer', 'editor'],
  }));
  const grants = apps.flatMap((app, i) => [
    { app: app.name, team: `Team ${i % 100}`, role: 'editor' },
    { app: app.name, team: `Team ${(i + 50) % 100}` },
    { app: app.name, user: users[i % users.length], role: 'viewer' },
  ]);
  const invites = Array.from({ length: 80 }, (_, i) => ({ email: `invited${i}@bench.example.com`, client: `Client ${i % 20}`, apps: [`app-${i}`] }));
  const document = { version: 1, clients, apps, teams, grants, invites };
  const objects = clients.length + apps.length + teams.length + teams.reduce((n, team) => n + team.members.length, 0) + grants.length + invites.length;
  return { document, objects };
}

async function call(url, token, { method = 'GET', pathname, body }) {
  const answer = await fetch(`${url}/api/auth/v1${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${pathname}: ${answer.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

async function timed(work) {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

build();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-setup-'));
try {
  const { url, child } = await startPortal(`sqlite:${path.join(folder, 'portal.db')}`);
  const { PortalClient } = await import('../packages/core/dist/index.js');
  const anonymous = new PortalClient({ baseUrl: url, fetch });
  const token = (await anonymous.auth.login({ Email: ADMIN, Password: PASSWORD })).accesstoken;
  const admin = new PortalClient({ baseUrl: url, token, fetch });

  // The users the document names: invited and registered through the API (not timed).
  const client = await admin.clients.create('Bench users');
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const email = `user${i}@bench.example.com`;
    const invite = await admin.invites.create({ email, clientid: client.id, apps: [] });
    await anonymous.auth.register({ Token: invite.token, Password: 'amber meadow kettle 4' });
    users.push(email);
  }

  const { document, objects } = documentOf(users);
  const first = await timed(() => call(url, token, { method: 'POST', pathname: '/config/plan', body: { document } }));
  const applied = await timed(() => call(url, token, { method: 'POST', pathname: '/config/apply', body: { document, expect: first.result.hash } }));
  const again = await timed(() => call(url, token, { method: 'POST', pathname: '/config/plan', body: { document } }));
  const exported = await timed(() => call(url, token, { pathname: '/config' }));

  const rows = [
    ['plan (empty portal)', first.ms, `${first.result.changes.length} changes`],
    ['apply', applied.ms, `${applied.result.changes.length} changes`],
    ['plan (applied)', again.ms, `${again.result.changes.length} changes`],
    ['export', exported.ms, `${exported.result.document.grants.length} grants`],
  ];
  console.log(`setup document of ${objects} objects, SQLite, ${os.cpus().length} cores`);
  console.log('| step | time | |');
  console.log('|---|---|---|');
  for (const [name, ms, what] of rows) console.log(`| ${name} | ${(ms / 1000).toFixed(2)} s | ${what} |`);
  const ratio = applied.ms / TARGET_MS;
  const ok = applied.ms < TARGET_MS && again.result.changes.length === 0;
  console.log(
    `\napply took ${(applied.ms / 1000).toFixed(2)} s = ${ratio.toFixed(2)} × the 10 s target: ${ok ? 'under 10 s (pass)' : 'NOT under 10 s (fail)'}`,
  );
  child.kill('SIGTERM');
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}
