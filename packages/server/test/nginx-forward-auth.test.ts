/**
 * The nginx configuration of docs/forward-auth.md, run for real: Debian's nginx on a loopback
 * ephemeral port, with its own prefix, in front of a tiny app and a real portal. Without nginx
 * this file skips loudly, except under CI=true, where it fails.
 */
import { fileURLToPath } from 'node:url';
import { generateApiKey, normalizeRequestPath, type App } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedNginxBlock, findNginx, startNginx, type Nginx } from './proxies/nginx.js';
import { cookieCases } from './proxies/credential-stripping.js';
import { pathTricks, rawGet, startEchoApp as startNamedEchoApp, type EchoApp } from './proxies/proxied-app.js';
import { createApp, freePort, startTestPortal, type TestPortal, type TestUser } from './support/support.js';

const DOC = fileURLToPath(new URL('../../../docs/forward-auth.md', import.meta.url));

const nginxBinary = findNginx('nginx-forward-auth.test.ts');

/** The documented original URL: the block's own origin, never the client's Host. */
const ORIGINAL_URL = (host: string) => `proxy_set_header X-Original-URL $scheme://${host}$request_uri;`;

/** A host the client makes up: in the Host header, or beside an absolute request line. */
const FORGED_HOST = 'elsewhere.example.test';

/** The maps the docs put in the http block. */
function documentedHttpBlock(): string {
  return documentedNginxBlock(DOC, 'tested-nginx-http', ['$app_cookie']);
}

/** The tested server block of the docs, pointed at the test's ports. */
function documentedServerBlock(ports: { nginx: number; portal: number; app: number }): string {
  return (
    documentedHttpBlock() +
    documentedNginxBlock(DOC, 'tested-nginx', ['listen 80;', '127.0.0.1:8080', '127.0.0.1:3000', ORIGINAL_URL('wiki.example.com')])
      .replace('listen 80;', `listen 127.0.0.1:${ports.nginx};`)
      .replace(ORIGINAL_URL('wiki.example.com'), ORIGINAL_URL(`127.0.0.1:${ports.nginx}`))
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${ports.portal}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${ports.app}`)
  );
}

describe.runIf(!nginxBinary && process.env.CI === 'true')('nginx forward auth', () => {
  it('needs nginx under CI=true', () => {
    throw new Error('nginx is not installed: .ci/run installs it with apt-get');
  });
});

describe.runIf(Boolean(nginxBinary))('nginx auth_request in front of an app (docs/forward-auth.md)', () => {
  let portal: TestPortal;
  let echo: EchoApp;
  let nginx: Nginx;
  let wiki: App;
  let granted: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    portal = await startTestPortal();
    echo = await startNamedEchoApp('wiki');
    const nginxPort = await freePort();
    nginx = await startNginx(nginxBinary!, nginxPort, documentedServerBlock({ nginx: nginxPort, portal: Number(new URL(portal.url).port), app: echo.port }));
    wiki = await createApp(portal.admin, { name: 'wiki', url: `${nginx.url}/` });
    granted = await portal.createUser({ apps: [wiki] });
    other = await portal.createUser({ apps: [] });
  });
  afterAll(async () => {
    await nginx?.stop();
    await echo?.close();
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
    expect(await response.json()).toMatchObject({
      path: '/page',
      user: granted.email,
      email: granted.email,
      name: granted.email,
      groups: granted.user.client.name,
    });
  });

  it('replaces identity headers the client made up', async () => {
    const spoof = {
      'remote-user': 'admin@example.com',
      'remote-groups': 'Admin',
      'remote-roles': 'admin',
      'remote-email': 'admin@example.com',
      'remote-name': 'Boss',
    };
    const response = await get('/', { ...spoof, ...asCookie(granted.token) });
    expect(response.status).toBe(200);
    const echoed = (await response.json()) as { roles: string | null };
    expect(echoed).toMatchObject({ user: granted.email, groups: granted.user.client.name, name: granted.email });
    // The portal's empty Remote-Roles (the app has no roles) replaces the client's.
    expect(echoed.roles ?? '').toBe('');
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

  it('lets ?app=wiki decide alone, whatever the path (nginx routes it to this one app anyway)', async () => {
    const answer = await rawGet(nginx.url, '/a/..%2fb', asCookie(granted.token));
    expect(answer.status).toBe(200);
    expect(answer.echo).toMatchObject({ path: '/a/..%2fb', user: granted.email });
  });

  it('builds the original URL from the server block, never from the Host or request line the client sends', async () => {
    for (const path of ['/page?x=1', `${nginx.url}/page?x=1`]) {
      const answer = await rawGet(nginx.url, path, { host: FORGED_HOST, accept: 'text/html' });
      expect([path, answer.status]).toEqual([path, 302]);
      expect(answer.headers.location).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${nginx.url}/page?x=1`)}`);
      expect((await rawGet(nginx.url, path, { host: FORGED_HOST, ...asCookie(granted.token) })).echo).toMatchObject({ app: 'wiki', user: granted.email });
    }
  });

  it("never lets a client's X-Forwarded-* reach the portal beside X-Original-URL", async () => {
    const spoof = { 'x-forwarded-uri': '/other', 'x-forwarded-host': 'evil.example.net', 'x-forwarded-proto': 'https', 'x-forwarded-method': 'GET' };
    const response = await get('/page', { ...spoof, ...asCookie(granted.token) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ path: '/page', user: granted.email });
    const anonymous = await get('/page', { ...spoof, accept: 'text/html' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${nginx.url}/page`)}`);
  });

  it("removes the portal's cookie, wherever it stands, and keeps the app's own cookies", async () => {
    for (const { label, sent, kept } of [
      ...cookieCases(granted.token),
      { label: 'two of them', sent: `a=1; accesstoken=${granted.token}; accesstoken=${other.token}; b=2`, kept: '' },
    ]) {
      const answer = await rawGet(nginx.url, '/page', { cookie: sent });
      expect([label, answer.status]).toEqual([label, 200]);
      expect([label, answer.echo?.cookie ?? '']).toEqual([label, kept]);
      expect(answer.body).not.toContain(granted.token);
    }
  });

  it('removes the Authorization header: the portal reads it, the app never gets it', async () => {
    const key = generateApiKey();
    await granted.api.accessTokens.create(key);
    for (const authorization of [`Bearer ${key}`, `Bearer ${granted.token}`, `bearer ${key}`]) {
      const answer = await rawGet(nginx.url, '/page', { authorization, cookie: 'a=1' });
      expect(answer.status).toBe(200);
      expect(answer.echo).toMatchObject({ user: granted.email, authorization: null, cookie: 'a=1' });
    }
  });

  it('stops admitting a user at once when the grant is revoked', async () => {
    const user = await portal.createUser({ apps: [wiki] });
    expect((await get('/', asCookie(user.token))).status).toBe(200);
    await portal.admin.users.revoke(user.user.id, wiki.id);
    expect((await get('/', asCookie(user.token))).status).toBe(403);
  });
});

/** The documented by-path server block, pointed at the test's ports. */
function documentedPathsBlock(ports: { nginx: number; portal: number; root: number; grafana: number }): string {
  return (
    documentedHttpBlock() +
    documentedNginxBlock(DOC, 'tested-nginx-paths', [
      'listen 80;',
      '127.0.0.1:8080',
      '127.0.0.1:3000',
      '127.0.0.1:3001',
      'location /grafana/',
      ORIGINAL_URL('tools.example.com'),
    ])
      .replace('listen 80;', `listen 127.0.0.1:${ports.nginx};`)
      .replace(ORIGINAL_URL('tools.example.com'), ORIGINAL_URL(`127.0.0.1:${ports.nginx}`))
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${ports.portal}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${ports.root}`)
      .replaceAll('127.0.0.1:3001', `127.0.0.1:${ports.grafana}`)
  );
}

describe.runIf(Boolean(nginxBinary))('nginx in front of several apps on one host, judged by path (docs/forward-auth.md)', () => {
  let portal: TestPortal;
  let rootApp: EchoApp;
  let grafanaApp: EchoApp;
  let nginx: Nginx;
  let apps: Record<string, App>;
  let users: Record<string, TestUser>;

  beforeAll(async () => {
    portal = await startTestPortal();
    rootApp = await startNamedEchoApp('root');
    grafanaApp = await startNamedEchoApp('grafana');
    const nginxPort = await freePort();
    nginx = await startNginx(
      nginxBinary!,
      nginxPort,
      documentedPathsBlock({ nginx: nginxPort, portal: Number(new URL(portal.url).port), root: rootApp.port, grafana: grafanaApp.port }),
    );
    apps = {
      root: await createApp(portal.admin, { name: 'root', url: `${nginx.url}/` }),
      grafana: await createApp(portal.admin, { name: 'grafana', url: `${nginx.url}/grafana/` }),
    };
    users = { root: await portal.createUser({ apps: [apps.root] }), grafana: await portal.createUser({ apps: [apps.grafana] }) };
  });
  afterAll(async () => {
    await nginx?.stop();
    await rootApp?.close();
    await grafanaApp?.close();
    await portal?.close();
  });

  const asCookie = (token: string) => ({ cookie: `accesstoken=${token}` });

  it('admits each user to the app of the path, and only that one', async () => {
    const grafana = await rawGet(nginx.url, '/grafana/d/1', asCookie(users.grafana.token));
    expect(grafana.status).toBe(200);
    expect(grafana.echo).toMatchObject({ app: 'grafana', path: '/grafana/d/1', user: users.grafana.email });
    const root = await rawGet(nginx.url, '/wiki/page', asCookie(users.root.token));
    expect(root.echo).toMatchObject({ app: 'root', path: '/wiki/page', user: users.root.email });
    expect((await rawGet(nginx.url, '/wiki/page', asCookie(users.grafana.token))).status).toBe(403);
    expect((await rawGet(nginx.url, '/grafana/d/1', asCookie(users.root.token))).status).toBe(403);
    const anonymous = await rawGet(nginx.url, '/grafana/d/1', { accept: 'text/html' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${nginx.url}/grafana/d/1`)}`);
  });

  it('never lets a path trick reach an app the user may not use', async () => {
    const reached: string[] = [];
    for (const [user, from, to] of [
      ['grafana', 'grafana', 'wiki'],
      ['root', 'wiki', 'grafana'],
    ] as const) {
      for (const path of pathTricks(from, to)) {
        const answer = await rawGet(nginx.url, path, asCookie(users[user].token));
        if (!answer.echo) {
          expect([path, answer.status]).not.toEqual([path, 200]);
          continue;
        }
        reached.push(`${user} ${path} -> ${answer.echo.app}`);
        // The app that answered is the user's, and the path it got lies inside that app.
        expect([path, answer.echo.app]).toEqual([path, user]);
        const read = normalizeRequestPath(answer.echo.path);
        expect(read.ok).toBe(true);
        if (user === 'grafana') expect(read.ok && read.path.startsWith('/grafana/')).toBe(true);
        if (user === 'root') expect(read.ok && !read.path.toLowerCase().startsWith('/grafana')).toBe(true);
      }
    }
    // Only plain paths got through: no dot segment (refused, never resolved), no escape trick.
    for (const line of reached) expect(line).not.toMatch(/%2f|%5c|%25|;|%00|%c0|%e0|\\\\|#|\/\.\.?\/|%2e/i);
  });

  it('judges the app nginx serves, whatever Host or absolute request line the client sends (the only, default server)', async () => {
    // An app at another origin, granted to a user who holds nothing here: a forged Host must not lend its grant.
    const elsewhere = await createApp(portal.admin, { url: `http://${FORGED_HOST}/` });
    const stranger = await portal.createUser({ apps: [elsewhere] });
    for (const [shape, path] of [
      ['a forged Host', '/grafana/x'],
      ['an absolute request line', `${nginx.url}/grafana/x`],
      ['a forged Host at the root app', '/wiki/x'],
      ['an absolute request line at the root app', `${nginx.url}/wiki/x`],
    ]) {
      const hits = rootApp.hits() + grafanaApp.hits();
      const refused = await rawGet(nginx.url, path, { host: FORGED_HOST, ...asCookie(stranger.token) });
      expect([shape, refused.status, refused.echo?.app]).toEqual([shape, 403, undefined]);
      expect(rootApp.hits() + grafanaApp.hits()).toBe(hits);
      // The granted paths still work, through the same shapes.
      const user = path.includes('/grafana/') ? 'grafana' : 'root';
      const admitted = await rawGet(nginx.url, path, { host: FORGED_HOST, ...asCookie(users[user].token) });
      expect([shape, admitted.status]).toEqual([shape, 200]);
      expect(admitted.echo).toMatchObject({ app: user, user: users[user].email });
    }
  });

  it("removes the portal's credentials before every app of the host", async () => {
    for (const [user, path] of [
      ['grafana', '/grafana/x'],
      ['root', '/wiki/x'],
    ] as const) {
      const answer = await rawGet(nginx.url, path, { cookie: `a=1; accesstoken=${users[user].token}; b=2` });
      expect(answer.echo).toMatchObject({ app: user, cookie: 'a=1; b=2', authorization: null });
      const script = await rawGet(nginx.url, path, { authorization: `Bearer ${users[user].token}` });
      expect(script.echo).toMatchObject({ app: user, cookie: null, authorization: null });
    }
  });

  it('answers ambiguous paths 400, as the portal does, and reaches no app', async () => {
    const hits = rootApp.hits() + grafanaApp.hits();
    for (const path of [
      '/grafana/..%2fwiki/data',
      '/grafana/../wiki/data',
      '/wiki/%2e%2e/grafana/x',
      '/grafana/./x',
      '/wiki/..%5cgrafana/',
      '/grafana/..;/wiki',
      '/GRAFANA/x',
      '/grafana/%c0%ae%c0%ae/wiki',
      '/grafana/..%252fwiki',
    ]) {
      expect([path, (await rawGet(nginx.url, path, asCookie(portal.admin.token!))).status]).toEqual([path, 400]);
    }
    expect(rootApp.hits() + grafanaApp.hits()).toBe(hits);
  });

  it('judges the path nginx routes, whatever X-Forwarded-* or X-Original-URL the client sends', async () => {
    const spoofs: Record<string, string>[] = [
      { 'x-forwarded-uri': '/grafana/', 'x-forwarded-host': new URL(nginx.url).host, 'x-forwarded-proto': 'http' },
      { 'x-original-url': `${nginx.url}/grafana/` },
    ];
    for (const spoof of spoofs) {
      expect((await rawGet(nginx.url, '/wiki/page', { ...spoof, ...asCookie(users.grafana.token) })).status).toBe(403);
      const mine = await rawGet(nginx.url, '/grafana/x', { ...spoof, ...asCookie(users.grafana.token) });
      expect(mine.echo).toMatchObject({ app: 'grafana', user: users.grafana.email });
    }
  });
});
