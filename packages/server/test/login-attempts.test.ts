/**
 * Brute-force limits count password checks *started* (docs/security.md): concurrent guesses are
 * reserved before hashing, on one instance and across instances sharing the database, so that a
 * burst of 100 attempts gets at most the limit checked and the rest answer 429 at once.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PortalClient } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, createTestDatabase, testDialect } from './support/database.js';
import { spawnServer, type ServerProcess } from './support/processes.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, unique, useTestPortal, useTwoPortals } from './support/support.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BURST = 100;
const PASSWORD = 'the-right-password-1';

interface Answer {
  status: number;
  retryAfter: string | null;
}

/** Sends `count` logins at once, spread over the given portal URLs; answers every status. */
async function burst(urls: string[], count: number, body: (index: number) => { Email: string; Password: string }): Promise<Answer[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await fetch(`${urls[index % urls.length]}/api/auth/v1/validatepassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body(index)),
      });
      await response.arrayBuffer();
      return { status: response.status, retryAfter: response.headers.get('retry-after') };
    }),
  );
}

/** Every answer is a check (401/200) or an immediate 429 with Retry-After; at most `limit` checks. */
function expectAtMostChecked(answers: Answer[], limit: number): void {
  const checked = answers.filter((answer) => answer.status !== 429);
  expect(checked.length).toBeLessThanOrEqual(limit);
  for (const answer of checked) expect([200, 401]).toContain(answer.status);
  for (const answer of answers.filter((a) => a.status === 429)) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(answers.filter((answer) => answer.status === 429)).toHaveLength(answers.length - checked.length);
}

// The right password sits in the middle of the burst: wherever the scheduler puts it, the limit holds.
const guesses = (email: string) => (index: number) => ({ Email: email, Password: index === BURST / 2 ? PASSWORD : `wrong-guess-${index}` });

describe('one instance', () => {
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000' });

  it(`${BURST} concurrent guesses for one email start at most LOGIN_FAILURES_PER_EMAIL checks`, async () => {
    const { email } = await portal.createUser({ password: PASSWORD });
    const before = portal.deps.hasher.checksStarted;
    const answers = await burst([portal.url], BURST, guesses(email));
    expectAtMostChecked(answers, 5);
    expect(portal.deps.hasher.checksStarted - before).toBeLessThanOrEqual(5);
    // The email is banned now, even for the right password.
    expect((await burst([portal.url], 1, () => ({ Email: email, Password: PASSWORD })))[0].status).toBe(429);
  });

  it('200 blocked attempts are a few login.blocked rows whose counts sum to 200, not a row each', async () => {
    const { email } = await portal.createUser({ password: PASSWORD });
    for (let attempt = 0; attempt < 5; attempt++) expect((await burst([portal.url], 1, () => ({ Email: email, Password: 'wrong' })))[0].status).toBe(401);
    const rowsBefore = Number((await portal.deps.db('auth_log').count({ n: '*' }))[0].n);
    const answers = await burst([portal.url], 200, () => ({ Email: email, Password: PASSWORD }));
    expect(answers.every((answer) => answer.status === 429)).toBe(true);
    const blocked = await portal.deps.db('auth_log').where({ user: email, type: 'login.blocked' }).select('count');
    // One row a minute per address and account: a minute may turn during the burst.
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked.length).toBeLessThanOrEqual(2);
    expect(blocked.reduce((sum, row) => sum + Number(row.count), 0)).toBe(200);
    expect(Number((await portal.deps.db('auth_log').count({ n: '*' }))[0].n) - rowsBefore).toBeLessThanOrEqual(2);
  });

  it('a successful login gives its reservation back', async () => {
    const { email } = await portal.createUser({ password: PASSWORD });
    for (let round = 0; round < 8; round++) expect((await burst([portal.url], 1, () => ({ Email: email, Password: PASSWORD })))[0].status).toBe(200);
    for (let attempt = 0; attempt < 4; attempt++) expect((await burst([portal.url], 1, () => ({ Email: email, Password: 'wrong' })))[0].status).toBe(401);
    expect((await burst([portal.url], 1, () => ({ Email: email, Password: PASSWORD })))[0].status).toBe(200);
  });
});

describe('one address', () => {
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '20' });

  it(`${BURST} concurrent guesses from one address start at most LOGIN_FAILURES_PER_ADDRESS checks`, async () => {
    const before = portal.deps.hasher.checksStarted;
    const answers = await burst([portal.url], BURST, (index) => ({ Email: `nobody-${index}@example.com`, Password: 'wrong-guess' }));
    expectAtMostChecked(answers, 20);
    expect(portal.deps.hasher.checksStarted - before).toBeLessThanOrEqual(20);
  });
});

describe('two instances in one process tree on one database', () => {
  const { a, b } = useTwoPortals({ LOGIN_FAILURES_PER_ADDRESS: '1000' });

  it(`${BURST} guesses split over both start at most LOGIN_FAILURES_PER_EMAIL checks in all`, async () => {
    const { email } = await a.createUser({ password: PASSWORD });
    const before = a.deps.hasher.checksStarted + b.deps.hasher.checksStarted;
    const answers = await burst([a.url, b.url], BURST, guesses(email));
    expectAtMostChecked(answers, 5);
    expect(a.deps.hasher.checksStarted + b.deps.hasher.checksStarted - before).toBeLessThanOrEqual(5);
  });
});

describe('two server processes on one database', () => {
  let database: { url: string; drop(): Promise<void> };
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
    database = testDialect() === 'postgres' ? await createPostgresDatabase() : createTestDatabase('sqlite');
    const env = { DATABASE_URL: database.url, ADMIN_EMAIL, ADMIN_PASSWORD, WEB_ROOT: '', LOGIN_FAILURES_PER_ADDRESS: '1000' };
    // One after the other: the first migrates, the second finds the schema ready.
    servers.push(await spawnServer(env, 30_000));
    servers.push(await spawnServer(env, 30_000));
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) if (server.child.exitCode === null) await server.kill();
    await database?.drop();
  });

  it(`${BURST} guesses split over both processes start at most LOGIN_FAILURES_PER_EMAIL checks`, async () => {
    const [a, b] = servers;
    const on = (server: ServerProcess, token?: string) => new PortalClient({ baseUrl: server.url, token });
    const admin = on(a, (await on(a).auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD })).accesstoken);
    const owner = await admin.clients.create(unique('client'));
    const email = `${unique('target')}@example.com`;
    const invite = await admin.invites.create({ email, clientid: owner.id, apps: [] });
    await on(b).auth.register({ Token: invite.token, Password: PASSWORD });
    const answers = await burst([a.url, b.url], BURST, guesses(email));
    expectAtMostChecked(answers, 5);
    expect((await burst([b.url], 1, () => ({ Email: email, Password: PASSWORD })))[0].status).toBe(429);
  });
});

describe('many people signing in at once behind one address', () => {
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '3', PASSWORD_HASH_QUEUE: '100' });

  it('right passwords past the address limit answer 429 at once, but ban no one: the next login works', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => portal.createUser({ password: PASSWORD })));
    const answers = await burst([portal.url], users.length, (index) => ({ Email: users[index].email, Password: PASSWORD }));
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    // Before: the 429s banned the address for LOGIN_BAN_MINUTES, so that every later login failed.
    for (const user of users) {
      expect((await burst([portal.url], 1, () => ({ Email: user.email, Password: PASSWORD })))[0].status).toBe(200);
    }
  });
});
