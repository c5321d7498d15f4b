/**
 * WORKERS=2: two server processes on one port (node:cluster) over one database, SQLite (WAL and a
 * busy timeout) or PostgreSQL. A change made through one worker is seen by the other at once
 * (the auth cache is cleared over the cluster's IPC), not only after AUTH_CACHE_SECONDS.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PortalClient } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testDialect } from './support/database.js';
import { spawnServer, type ServerProcess } from './support/processes.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, becomesTrue, unique } from './support/support.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let server: ServerProcess;
let drop: () => Promise<void> = async () => {};

beforeAll(async () => {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
  let url: string;
  if (testDialect() === 'postgres') {
    const database = await createPostgresDatabase();
    url = database.url;
    drop = database.drop;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-workers-'));
    url = `sqlite:${path.join(dir, 'portal.db')}`;
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  server = await spawnServer(
    { WORKERS: '2', DATABASE_URL: url, ADMIN_EMAIL, ADMIN_PASSWORD, WEB_ROOT: '', LOG_FORMAT: 'json', AUTH_CACHE_SECONDS: '5' },
    60_000,
  );
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) expect(await server.stop()).toBe(0);
  await drop();
});

interface Answer {
  status: number;
  requestId: string;
}

/** A GET on a connection of its own, so that the cluster may hand it to either worker. */
function freshGet(pathname: string, token: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}${pathname}`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, requestId: String(response.headers['x-request-id']) }));
    });
    request.on('error', reject);
  });
}

/** Which worker (process id) answered each request, from the request log lines. */
function workersOf(answers: Answer[]): Set<number> {
  const pids = new Map<string, number>();
  for (const line of server.output().split('\n')) {
    // The last line may still be arriving.
    if (!line.startsWith('{') || !line.endsWith('}')) continue;
    const entry = JSON.parse(line) as { reqId?: string; pid?: number; msg?: string };
    if (entry.msg === 'request' && entry.reqId && entry.pid) pids.set(entry.reqId, entry.pid);
  }
  return new Set(answers.map((answer) => pids.get(answer.requestId)).filter((pid): pid is number => pid !== undefined));
}

/** /metrics on a connection of its own. */
function metricsText(): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.url}/metrics`, { agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(text));
    });
    request.on('error', reject);
  });
}

async function burst(pathname: string, token: string, count = 16): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++) answers.push(await freshGet(pathname, token));
  return answers;
}

describe(`WORKERS=2 on ${testDialect()}`, () => {
  it('prepares the database once and serves from two processes on one port', async () => {
    expect(server.output().match(/first start: created admin/g) ?? []).toHaveLength(1);
    const admin = new PortalClient({
      baseUrl: server.url,
      token: (await new PortalClient({ baseUrl: server.url }).auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD })).accesstoken,
    });
    const answers = await burst('/api/auth/v1/user/me', admin.token!);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    // Lines are written within the log's flush interval (logger.ts).
    expect(await becomesTrue(async () => workersOf(answers).size === 2, 2000, 50)).toBe(true);
  });

  it('sees a revoked grant, a new grant and a logout made through one worker at once in the other', async () => {
    const anonymous = new PortalClient({ baseUrl: server.url });
    const admin = new PortalClient({ baseUrl: server.url, token: (await anonymous.auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD })).accesstoken });
    const name = unique('wapp');
    const app = await admin.apps.create({ name, url: `https://${name}.example.com/`, description: '', doclink: '' });
    const client = await admin.clients.create(unique('wclient'));
    const email = `${unique('wuser')}@example.com`;
    const invite = await admin.invites.create({ email, clientid: client.id, apps: [app.id] });
    const { accesstoken } = await anonymous.auth.register({ Token: invite.token, Password: 'a long user password 1' });
    const user = new PortalClient({ baseUrl: server.url, token: accesstoken });
    const me = await user.users.me();
    const verify = `/api/auth/v1/verify?app=${encodeURIComponent(name)}`;

    // Both workers have the grant cached.
    const warm = await burst(verify, accesstoken);
    expect(warm.map((answer) => answer.status)).toEqual(warm.map(() => 200));

    await admin.users.revoke(me.id, app.id);
    const revoked = await burst(verify, accesstoken);
    expect(revoked.map((answer) => answer.status)).toEqual(revoked.map(() => 403));
    // Lines are written within the log's flush interval (logger.ts).
    expect(await becomesTrue(async () => workersOf(revoked).size === 2, 2000, 50)).toBe(true);

    await admin.users.grant(me.id, app.id);
    expect((await burst(verify, accesstoken)).map((answer) => answer.status)).toEqual(Array(16).fill(200));

    await user.auth.logout();
    expect((await burst(verify, accesstoken)).map((answer) => answer.status)).toEqual(Array(16).fill(401));
  });

  it('answers /metrics for the whole instance, whichever worker takes the scrape', async () => {
    const logins = async () => Number(/^portal_logins_total\{outcome="success"\} (\d+)$/m.exec(await metricsText())?.[1] ?? NaN);
    const before = await logins();
    const anonymous = new PortalClient({ baseUrl: server.url });
    for (let i = 0; i < 4; i++) await anonymous.auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD });
    const scrapes = await burst('/metrics', '', 6);
    expect(scrapes.map((scrape) => scrape.status)).toEqual(Array(6).fill(200));
    // Lines are written within the log's flush interval (logger.ts).
    expect(await becomesTrue(async () => workersOf(scrapes).size === 2, 2000, 50)).toBe(true);
    // Every scrape sees the same login count: the sum over both workers.
    const counts = new Set<number>();
    for (let i = 0; i < 6; i++) counts.add(await logins());
    expect([...counts]).toEqual([before + 4]);
  });

  it('takes concurrent writes through both workers', async () => {
    const admin = new PortalClient({
      baseUrl: server.url,
      token: (await new PortalClient({ baseUrl: server.url }).auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD })).accesstoken,
    });
    const names = Array.from({ length: 20 }, () => unique('many'));
    const created = await Promise.allSettled(names.map((name) => admin.clients.create(name)));
    expect(created.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason))).toEqual([]);
    const listed = new Set((await admin.clients.list()).map((client) => client.name));
    for (const name of names) expect(listed.has(name)).toBe(true);
  });
});
