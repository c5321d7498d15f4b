/**
 * The nginx configuration of docs/forward-auth.md, run for real: Debian's nginx on a loopback
 * ephemeral port, with its own prefix, in front of a tiny app and a real portal. Without nginx
 * this file skips loudly, except under CI=true, where it fails.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { generateApiKey, type App } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedNginxBlock, findNginx, startNginx, type Nginx } from './nginx.js';
import { createApp, freePort, startTestPortal, type TestPortal, type TestUser } from './support.js';

const DOC = fileURLToPath(new URL('../../../docs/forward-auth.md', import.meta.url));

const nginxBinary = findNginx('nginx-forward-auth.test.ts');

/** The tested server block of the docs, pointed at the test's ports. */
function documentedServerBlock(ports: { nginx: number; portal: number; app: number }): string {
  return documentedNginxBlock(DOC, 'tested-nginx', ['listen 80;', '127.0.0.1:8080', '127.0.0.1:3000'])
    .replace('listen 80;', `listen 127.0.0.1:${ports.nginx};`)
    .replaceAll('127.0.0.1:8080', `127.0.0.1:${ports.portal}`)
    .replaceAll('127.0.0.1:3000', `127.0.0.1:${ports.app}`);
}

/** The protected app: answers with the identity headers it received. */
function startEchoApp(): Promise<{ server: http.Server; port: number; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((request, response) => {
    hits++;
    const pick = (name: string) => request.headers[name] ?? null;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ path: request.url, user: pick('remote-user'), email: pick('remote-email'), name: pick('remote-name'), groups: pick('remote-groups') }));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, hits: () => hits }));
  });
}

describe.runIf(!nginxBinary && process.env.CI === 'true')('nginx forward auth', () => {
  it('needs nginx under CI=true', () => {
    throw new Error('nginx is not installed: .ci/run installs it with apt-get');
  });
});

describe.runIf(Boolean(nginxBinary))('nginx auth_request in front of an app (docs/forward-auth.md)', () => {
  let portal: TestPortal;
  let echo: Awaited<ReturnType<typeof startEchoApp>>;
  let nginx: Nginx;
  let wiki: App;
  let granted: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    portal = await startTestPortal();
    echo = await startEchoApp();
    const nginxPort = await freePort();
    nginx = await startNginx(nginxBinary!, nginxPort, documentedServerBlock({ nginx: nginxPort, portal: Number(new URL(portal.url).port), app: echo.port }));
    wiki = await createApp(portal.admin, { name: 'wiki', url: `${nginx.url}/` });
    granted = await portal.createUser({ apps: [wiki] });
    other = await portal.createUser({ apps: [] });
  });
  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => echo?.server.close(resolve));
    await portal?.close();
  });

  const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${nginx.url}${pathname}`, { headers, redirect: 'manual' });
  const asCookie = (token: string) => ({ cookie: `accesstoken=${token}` });

  it('sends a visitor who is not logged in to the login screen, and back afterwards', async () => {
    const before = echo.hits();
    const response = await get('/page?x=1', { accept: 'text/html' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${nginx.url}/page?x=1`)}`);
    expect(echo.hits()).toBe(before);
  });

  it('admits a granted user, and the app sees who it is', async () => {
    const response = await get('/page', asCookie(granted.token));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ path: '/page', user: granted.email, email: granted.email, name: granted.email, groups: granted.user.client.name });
  });

  it('replaces identity headers the client made up', async () => {
    const spoof = { 'remote-user': 'admin@example.com', 'remote-groups': 'Admin', 'remote-email': 'admin@example.com', 'remote-name': 'Boss' };
    const response = await get('/', { ...spoof, ...asCookie(granted.token) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ user: granted.email, groups: granted.user.client.name, name: granted.email });
    expect((await get('/', spoof)).status).toBe(302);
  });

  it('refuses a user without the app with 403, never reaching the app', async () => {
    const before = echo.hits();
    expect((await get('/page', asCookie(other.token))).status).toBe(403);
    expect(echo.hits()).toBe(before);
  });

  it('admits admins, and API keys by Bearer', async () => {
    const admin = await get('/', { authorization: `Bearer ${portal.admin.token}` });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toMatchObject({ groups: 'Admin' });
    const key = generateApiKey();
    await granted.api.accessTokens.create(key);
    const script = await get('/api/data', { authorization: `Bearer ${key}`, accept: 'application/json' });
    expect(script.status).toBe(200);
    expect(await script.json()).toMatchObject({ path: '/api/data', user: granted.email });
  });

  it('stops admitting a user at once when the grant is revoked', async () => {
    const user = await portal.createUser({ apps: [wiki] });
    expect((await get('/', asCookie(user.token))).status).toBe(200);
    await portal.admin.users.revoke(user.user.id, wiki.id);
    expect((await get('/', asCookie(user.token))).status).toBe(403);
  });
});
