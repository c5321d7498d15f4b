/**
 * The load-balancer configuration of docs/deployment.md, run for real: Debian's nginx on a
 * loopback ephemeral port in front of two portal instances on one database (of the dialect under
 * test). Without nginx this file skips loudly, except under CI=true, where it fails.
 */
import { fileURLToPath } from 'node:url';
import { loadConfig, startPortal, type RunningPortal } from '@tools-portal/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, testPostgresUrl, type TestDatabase } from './support/database.js';
import { documentedNginxBlock, findNginx, startNginx, type Nginx } from './proxies/nginx.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, unique } from './support/support.js';
import { startTcpProxy, type TcpProxy } from './proxies/tcp-proxy.js';

const DOC = fileURLToPath(new URL('../../../docs/deployment.md', import.meta.url));

const nginxBinary = findNginx('nginx-load-balancer.test.ts');

/** The documented upstream and server blocks, pointed at the test's ports, on plain http. */
function documentedConfig(ports: { nginx: number; a: number; b: number }): string {
  return documentedNginxBlock(DOC, 'tested-nginx-lb', ['listen 443 ssl;', '127.0.0.1:8081', '127.0.0.1:8082', 'ssl_certificate ', 'ssl_certificate_key '])
    .replace('listen 443 ssl;', `listen 127.0.0.1:${ports.nginx};`)
    .replace(/^\s*ssl_certificate(_key)?\s.*$/gm, '')
    .replace('127.0.0.1:8081', `127.0.0.1:${ports.a}`)
    .replace('127.0.0.1:8082', `127.0.0.1:${ports.b}`);
}

describe.skipIf(!nginxBinary && process.env.CI !== 'true')('two portal instances behind the documented nginx', () => {
  let database: TestDatabase;
  let dbProxy: TcpProxy | undefined;
  let portals: RunningPortal[] = [];
  let nginx: Nginx;
  let url: string;
  const served = [0, 0];

  beforeAll(async () => {
    if (!nginxBinary) throw new Error('nginx is not installed, and CI=true does not allow skipping');
    database = createTestDatabase();
    let databaseUrl = database.url;
    if (database.dialect === 'postgres') {
      // Between the instances and PostgreSQL, so a test can take the database away.
      const direct = new URL(testPostgresUrl());
      dbProxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      direct.port = String(dbProxy.port);
      databaseUrl = direct.toString();
    }
    const nginxPort = await freePort();
    url = `http://127.0.0.1:${nginxPort}`;
    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: url,
      TRUST_PROXY: 'true',
      SCRYPT_LOGN: '10',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'silent',
      WEB_ROOT: '',
    });
    const started = await Promise.allSettled([0, 1].map(() => startPortal(config, { schema: database.schema })));
    portals = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    portals.forEach((portal, index) => portal.server.on('request', () => served[index]++));
    const [a, b] = portals.map((portal) => Number(new URL(portal.url).port));
    nginx = await startNginx(nginxBinary, nginxPort, documentedConfig({ nginx: nginxPort, a, b }));
  }, 60_000);
  afterAll(async () => {
    await nginx?.stop();
    await dbProxy?.restore().catch(() => {});
    await Promise.all(portals.map((portal) => portal.close()));
    await dbProxy?.close();
    await database?.drop();
  });

  const through = (pathname: string, init: RequestInit = {}) => fetch(`${url}${pathname}`, init);
  async function loginCookie(): Promise<string> {
    const response = await through('/api/auth/v1/validatepassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD }),
    });
    expect(response.status).toBe(200);
    const cookie = /accesstoken=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
    if (!cookie) throw new Error('no session cookie in the login answer');
    return cookie;
  }

  it('spreads requests over both instances; a session works whichever one answers', async () => {
    const cookie = await loginCookie();
    const before = [...served];
    for (let index = 0; index < 10; index++) {
      const response = await through('/api/auth/v1/user/me', { headers: { cookie } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { email: string }).email).toBe(ADMIN_EMAIL);
    }
    expect(served[0]).toBeGreaterThan(before[0]);
    expect(served[1]).toBeGreaterThan(before[1]);
  });

  it('cookie writes carry Origin: PUBLIC_URL; logout through one instance holds on both', async () => {
    const cookie = await loginCookie();
    const write = (origin: string) =>
      through('/api/auth/v1/client/', {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: unique('lb') }),
      });
    expect((await write(url)).status).toBe(201);
    expect((await write('http://evil.example.com')).status).toBe(403);

    expect((await through('/api/auth/v1/logout', { method: 'POST', headers: { cookie, origin: url } })).status).toBe(204);
    const after = await Promise.all(Array.from({ length: 6 }, () => through('/api/auth/v1/user/me', { headers: { cookie } })));
    expect(after.map((response) => response.status)).toEqual(Array(6).fill(401));
  });

  it('records the connecting address, not an X-Forwarded-For the client made up', async () => {
    const email = `${unique('nobody')}@example.com`;
    const response = await through('/api/auth/v1/validatepassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ Email: email, Password: 'not-the-password' }),
    });
    expect(response.status).toBe(401);
    const row = await portals[0].deps.db('auth_log').where({ user: email }).first();
    expect(row).toMatchObject({ ip: '127.0.0.1' });
  });

  it.skipIf(testDialect() !== 'postgres')("passes the portal's 503 JSON through while the database is down, and serves after", async () => {
    const cookie = await loginCookie();
    await dbProxy!.cut();
    try {
      for (let index = 0; index < 4; index++) {
        const response = await through('/api/auth/v1/user/me', { headers: { cookie } });
        expect(response.status).toBe(503);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unavailable');
      }
      expect((await through('/healthz')).status).toBe(503);
    } finally {
      await dbProxy!.restore();
    }
    let healthy = false;
    for (let attempt = 0; attempt < 75 && !healthy; attempt++) {
      healthy = (await through('/api/auth/v1/user/me', { headers: { cookie } })).status === 200;
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(healthy).toBe(true);
  });

  it('skips an instance that is down', async () => {
    const cookie = await loginCookie();
    await portals[0].close();
    portals = portals.slice(1);
    for (let index = 0; index < 6; index++) {
      expect((await through('/api/auth/v1/user/me', { headers: { cookie } })).status).toBe(200);
    }
    const created = await through('/api/auth/v1/client/', {
      method: 'POST',
      headers: { cookie, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ name: unique('after-down') }),
    });
    expect(created.status).toBe(201);
  });
});
