/**
 * Several server instances on one database (docs/product.md, Scale): they start together on an empty
 * database, and every piece of state one of them writes holds on the others.
 */
import { generateApiKey } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { ADMIN_EMAIL, createApp, failure, refuses, startTestPortal, unique, type TestPortal } from './support/support.js';

describe('two instances starting together on an empty database', () => {
  it('migrate it once, bootstrap it once, and both come up (three rounds, three instances)', async () => {
    for (let round = 0; round < 3; round++) {
      const database = createTestDatabase();
      try {
        // Settle every start before judging, so that none is still creating tables when the database is dropped.
        const started = await Promise.allSettled([0, 1, 2].map(() => startTestPortal({}, { database })));
        const portals = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
        try {
          for (const result of started) if (result.status === 'rejected') throw result.reason;
          for (const portal of portals) expect((await portal.anonymous.health()).status).toBe('ok');
          expect(portals.filter((portal) => portal.bootstrap.created)).toHaveLength(1);
          const db = portals[0].deps.db;
          const migrations: { name: string }[] = await db('knex_migrations').select('name');
          expect(migrations.length).toBeGreaterThan(0);
          expect(new Set(migrations.map((row) => row.name)).size).toBe(migrations.length);
          expect(await db('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
          expect(await db('clients').where({ name: 'Admin' }).select('name')).toHaveLength(1);
          expect(await db('users').where({ email: ADMIN_EMAIL }).select('id')).toHaveLength(1);
          expect(await db('auth_log').where({ event: 'created client Admin' }).select('id')).toHaveLength(1);
        } finally {
          await Promise.all(portals.map((portal) => portal.close()));
        }
      } finally {
        await database.drop();
      }
    }
  });
});

describe('two instances on one database', () => {
  let database: TestDatabase;
  let a: TestPortal;
  let b: TestPortal;
  beforeAll(async () => {
    database = createTestDatabase();
    const started = await Promise.allSettled([startTestPortal({}, { database }), startTestPortal({}, { database })]);
    [a, b] = started.map((result) => (result.status === 'fulfilled' ? result.value : (undefined as unknown as TestPortal)));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
  });

  it('run as separate servers with pools of their own', () => {
    expect(a.url).not.toBe(b.url);
    expect(a.deps.db).not.toBe(b.deps.db);
  });

  it('a session made on A works on B; logging out on B ends it on A', async () => {
    const { email, password } = await a.createUser();
    const token = await a.login(email, password);
    expect((await b.client(token).users.me()).email).toBe(email);
    expect((await a.client(token).users.me()).email).toBe(email);

    await b.client(token).auth.logout();
    expect(await refuses(b.client(token).users.me())).toBe(true);
    a.passCacheBound();
    expect(await refuses(a.client(token).users.me())).toBe(true);
  });

  it("an admin's end-sessions and user deletion on B stop the user on A", async () => {
    const first = await a.createUser();
    await b.admin.users.endSessions(first.user.id);
    a.passCacheBound();
    expect(await refuses(first.api.users.me())).toBe(true);

    const second = await a.createUser();
    await b.admin.users.delete(second.user.id);
    a.passCacheBound();
    expect(await refuses(second.api.users.me())).toBe(true);
  });

  it("an entry written on B is on A's event log page at once, also when A has just read that page", async () => {
    const page = () => a.admin.logs.page(1, 20);
    await page();
    await page();
    const name = unique('client');
    await b.admin.clients.create(name);
    expect((await page()).map((entry) => entry.event)).toContain(`created client ${name}`);
  });

  it('a ban earned on A holds on B', async () => {
    const { email, password } = await a.createUser();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await failure(a.anonymous.auth.login({ Email: email, Password: 'wrong-password' }))).toMatchObject({ code: 'unauthenticated' });
    }
    const response = await b.fetch('/api/auth/v1/validatepassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: email, Password: password }),
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('too_many_requests');
  });

  it('an invite made on A registers on B, once', async () => {
    const email = `${unique('invited')}@example.com`;
    const owner = await a.admin.clients.create(unique('client'));
    const invite = await a.admin.invites.create({ email, clientid: owner.id, apps: [] });
    const { accesstoken } = await b.anonymous.auth.register({ Token: invite.token, Password: 'a-fine-password' });
    expect((await a.client(accesstoken).users.me()).client).toEqual(owner);
    expect((await a.admin.invites.list()).map((open) => open.email)).not.toContain(email);
    expect(await failure(a.anonymous.auth.register({ Token: invite.token, Password: 'a-fine-password' }))).toMatchObject({ code: 'conflict' });
  });

  it('an API key registered on A works on B, and its deletion on B holds on A', async () => {
    const { api, token } = await a.createUser();
    const key = generateApiKey();
    await api.accessTokens.create(key);
    expect((await b.client(key).users.me()).email).toBe((await api.users.me()).email);
    // Deleted by its owner's session on B (a key cannot delete keys).
    await b.client(token).accessTokens.delete(key);
    a.passCacheBound();
    expect(await refuses(a.client(key).users.me())).toBe(true);
  });

  it('forward auth on A follows a revocation, a grant and a logout made on B within 5 s', async () => {
    const app = await createApp(a.admin);
    const { user, email, password } = await a.createUser({ apps: [app] });
    const token = await a.login(email, password);
    const verify = async (portal: TestPortal) =>
      (await portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, { headers: { cookie: `accesstoken=${token}` } })).status;
    // What A answers once its cache's bound has passed.
    const afterBound = (portal: TestPortal) => {
      portal.passCacheBound();
      return verify(portal);
    };

    expect(await verify(a)).toBe(200); // A now holds the session and the grants in its cache
    await b.admin.users.revoke(user.id, app.id);
    expect(await verify(b)).toBe(403);
    expect(await afterBound(a)).toBe(403);

    await b.admin.users.grant(user.id, app.id);
    expect(await afterBound(a)).toBe(200);

    await b.client(token).auth.logout();
    expect(await verify(b)).toBe(401);
    expect(await afterBound(a)).toBe(401);
  }, 45_000);
});
