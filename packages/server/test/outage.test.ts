/**
 * The database becomes unreachable while the server runs: the API answers 503 with the JSON
 * error, /healthz answers 503, nothing crashes, and the server serves again once the database is
 * back, without a restart. PostgreSQL only (SQLite is a file, not a server); the shared
 * PostgreSQL is never stopped: a TCP proxy between the portal and it is cut instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect, testPostgresUrl } from './support/database.js';
import { becomesTrue, createApp, startTestPortal, unique, type TestPortal } from './support/support.js';
import { startTcpProxy, type TcpProxy } from './proxies/tcp-proxy.js';

describe.skipIf(testDialect() !== 'postgres')('PostgreSQL unreachable', () => {
  let proxy: TcpProxy;
  let portal: TestPortal;
  beforeAll(async () => {
    const direct = new URL(testPostgresUrl());
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    portal = await startTestPortal({ DATABASE_URL: proxied.toString() });
  });
  afterAll(async () => {
    await proxy?.restore().catch(() => {});
    await portal?.close();
    await proxy?.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    portal.fetch(path, {
      method,
      headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const healthy = async () => (await portal.fetch('/healthz')).status === 200;

  it('answers 503 while cut off, and serves again when the database is back', async () => {
    const before = await createApp(portal.admin);
    expect(await healthy()).toBe(true);

    await proxy.cut();
    // Twice each: first on the pool's dead connections, then on connections that cannot be made.
    for (let round = 0; round < 2; round++) {
      const health = await portal.fetch('/healthz');
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: 'unavailable' });
      for (const [method, path, body] of [
        ['GET', '/api/auth/v1/app/'],
        ['GET', '/api/auth/v1/user/me'],
        ['POST', '/api/auth/v1/client/', { name: unique('client') }],
        ['POST', '/api/auth/v1/validatepassword', { Email: 'someone@example.com', Password: 'whatever-password' }],
      ] as const) {
        const response = await call(method, path, body);
        expect(response.status, `${method} ${path}`).toBe(503);
        expect(response.headers.get('retry-after')).toBeTruthy();
        expect(await response.json()).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
      }
    }
    const burst = await Promise.all(Array.from({ length: 20 }, () => call('GET', '/api/auth/v1/app/')));
    expect(burst.map((response) => response.status)).toEqual(Array(20).fill(503));

    await proxy.restore();
    expect(await becomesTrue(healthy, 15_000)).toBe(true);
    expect((await portal.admin.apps.list()).map((app) => app.name)).toContain(before.name);
    const after = await createApp(portal.admin);
    expect(await portal.admin.apps.get(after.id)).toMatchObject(after);
  });

  it('answers 503 when the network swallows packets (connect timeout), and serves after', async () => {
    expect(await healthy()).toBe(true);
    await proxy.blackhole();
    // Bounded by the 5 s connect and acquire timeouts; vitest's test timeout guards against a hang.
    const [health, api] = await Promise.all([portal.fetch('/healthz'), call('GET', '/api/auth/v1/app/')]);
    expect(health.status).toBe(503);
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });

    await proxy.restore();
    expect(await becomesTrue(healthy, 15_000)).toBe(true);
    expect((await call('GET', '/api/auth/v1/app/')).status).toBe(200);
  });

  it('a cut in the middle of many requests answers each one 2xx or 503, never 500', async () => {
    const requests = Array.from({ length: 40 }, (_, index) =>
      index % 2 === 0 ? call('GET', '/api/auth/v1/user/') : call('POST', '/api/auth/v1/client/', { name: unique('mid-cut') }),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    await proxy.cut();
    const statuses = (await Promise.all(requests)).map((response) => response.status);
    expect(statuses.filter((status) => !(status === 200 || status === 201 || status === 503))).toEqual([]);
    expect(statuses).toContain(503);

    await proxy.restore();
    expect(await becomesTrue(healthy, 15_000)).toBe(true);
    expect((await call('GET', '/api/auth/v1/user/')).status).toBe(200);
  });
});
