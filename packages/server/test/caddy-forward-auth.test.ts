/**
 * The Caddy configurations of docs/forward-auth.md, run for real: Debian's Caddy 2.6 on a loopback
 * ephemeral port, with a home of its own, in front of small apps and a real portal. Without Caddy
 * this file skips loudly, except under CI=true, where it fails.
 */
import { fileURLToPath } from 'node:url';
import { generateApiKey, normalizeRequestPath, type App } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedCaddyBlock, findCaddy, startCaddy, type Caddy } from './proxies/caddy.js';
import { cookieCases } from './proxies/credential-stripping.js';
import { pathTricks, rawGet, startEchoApp, type EchoApp } from './proxies/proxied-app.js';
import { createApp, freePort, startTestPortal, type TestPortal, type TestUser } from './support/support.js';

const DOC = fileURLToPath(new URL('../../../docs/forward-auth.md', import.meta.url));

const caddyBinary = findCaddy('caddy-forward-auth.test.ts');

describe.runIf(!caddyBinary && process.env.CI === 'true')('caddy forward auth', () => {
  it('needs caddy under CI=true', () => {
    throw new Error('caddy is not installed: .ci/run installs it with apt-get');
  });
});

const asCookie = (token: string) => ({ cookie: `accesstoken=${token}` });

/** The documented original host: the site's own, never the client's Host. */
const FIXED_HOST = (host: string) => `header_up X-Forwarded-Host ${host}`;

/**
 * A host the client makes up, in the Host header or beside an absolute request line. The tests
 * serve the documented site on every host of their port (`http://:PORT`), as the only or default
 * site would.
 */
const FORGED_HOST = 'elsewhere.example.test';

describe.runIf(Boolean(caddyBinary))('Caddy forward_auth in front of an app (docs/forward-auth.md)', () => {
  let portal: TestPortal;
  let echo: EchoApp;
  let caddy: Caddy;
  let wiki: App;
  let granted: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    portal = await startTestPortal();
    echo = await startEchoApp('wiki');
    const port = await freePort();
    const block = documentedCaddyBlock(DOC, 'tested-caddy', [
      'wiki.example.com {',
      '127.0.0.1:8080',
      '127.0.0.1:3000',
      '?app=wiki',
      FIXED_HOST('wiki.example.com'),
    ])
      .replace('wiki.example.com {', `http://:${port} {`)
      .replace(FIXED_HOST('wiki.example.com'), FIXED_HOST(`127.0.0.1:${port}`))
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${new URL(portal.url).port}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${echo.port}`);
    caddy = await startCaddy(caddyBinary!, port, block);
    wiki = await createApp(portal.admin, { name: 'wiki', url: `${caddy.url}/` });
    granted = await portal.createUser({ apps: [wiki] });
    other = await portal.createUser({ apps: [] });
  });
  afterAll(async () => {
    await caddy?.stop();
    await echo?.close();
    await portal?.close();
  });

  it('sends a browser that is not logged in to the login screen, and back afterwards; a script gets 401', async () => {
    const before = echo.hits();
    const page = await rawGet(caddy.url, '/page?x=1', { accept: 'text/html' });
    expect(page.status).toBe(302);
    expect(page.headers.location).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${caddy.url}/page?x=1`)}`);
    const script = await rawGet(caddy.url, '/api/data', { accept: 'application/json' });
    expect(script.status).toBe(401);
    expect(echo.hits()).toBe(before);
  });

  it('admits a granted user, and the app sees who it is, whatever identity headers the client sent', async () => {
    const spoof = {
      'remote-user': 'admin@example.com',
      'remote-groups': 'Admin',
      'remote-roles': 'admin',
      'remote-email': 'admin@example.com',
      'remote-name': 'Boss',
    };
    const response = await rawGet(caddy.url, '/page', { ...spoof, ...asCookie(granted.token) });
    expect(response.status).toBe(200);
    expect(response.echo).toMatchObject({ path: '/page', user: granted.email, email: granted.email, name: granted.email, groups: granted.user.client.name });
    // The portal's empty Remote-Roles (the app has no roles) leaves none of the client's.
    expect((response.echo as { roles: string | null }).roles ?? '').toBe('');
  });

  it('refuses a user without the app with 403, never reaching the app', async () => {
    const before = echo.hits();
    expect((await rawGet(caddy.url, '/page', asCookie(other.token))).status).toBe(403);
    expect(echo.hits()).toBe(before);
  });

  it('admits API keys by Bearer', async () => {
    const key = generateApiKey();
    await granted.api.accessTokens.create(key);
    const response = await rawGet(caddy.url, '/api/data', { authorization: `Bearer ${key}` });
    expect(response.status).toBe(200);
    expect(response.echo).toMatchObject({ user: granted.email });
  });

  it("removes the portal's cookie, wherever it stands, and keeps the app's own cookies", async () => {
    const cases = [
      ...cookieCases(granted.token),
      { label: 'two of them', sent: `a=1; accesstoken=${granted.token}; accesstoken=${other.token}; b=2`, kept: 'a=1; b=2' },
    ];
    for (const { label, sent, kept } of cases) {
      const answer = await rawGet(caddy.url, '/page', { cookie: sent });
      expect([label, answer.status]).toEqual([label, 200]);
      expect([label, answer.echo?.cookie ?? '']).toEqual([label, kept]);
      expect(answer.body).not.toContain(granted.token);
    }
  });

  it('removes the Authorization header: the portal reads it, the app never gets it', async () => {
    const key = generateApiKey();
    await granted.api.accessTokens.create(key);
    for (const authorization of [`Bearer ${key}`, `Bearer ${granted.token}`, `bearer ${key}`]) {
      const answer = await rawGet(caddy.url, '/page', { authorization, cookie: 'a=1' });
      expect(answer.status).toBe(200);
      expect(answer.echo).toMatchObject({ user: granted.email, authorization: null, cookie: 'a=1' });
    }
  });

  it('builds the original URL from the site, never from the Host or request line the client sends', async () => {
    for (const path of ['/page?x=1', `${caddy.url}/page?x=1`]) {
      const answer = await rawGet(caddy.url, path, { host: FORGED_HOST, accept: 'text/html' });
      expect([path, answer.status]).toEqual([path, 302]);
      expect(answer.headers.location).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${caddy.url}/page?x=1`)}`);
      expect((await rawGet(caddy.url, path, { host: FORGED_HOST, ...asCookie(granted.token) })).echo).toMatchObject({ app: 'wiki', user: granted.email });
    }
  });

  it("never lets a client's X-Original-URL reach the portal", async () => {
    const response = await rawGet(caddy.url, '/page', { 'x-original-url': 'https://evil.example.net/', ...asCookie(granted.token) });
    expect(response.status).toBe(200);
    const anonymous = await rawGet(caddy.url, '/page', { 'x-original-url': 'https://evil.example.net/', accept: 'text/html' });
    expect(anonymous.headers.location).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${caddy.url}/page`)}`);
  });
});

describe.runIf(Boolean(caddyBinary))('Caddy in front of several apps on one host, judged by path (docs/forward-auth.md)', () => {
  let portal: TestPortal;
  let rootApp: EchoApp;
  let grafanaApp: EchoApp;
  let caddy: Caddy;
  let users: Record<string, TestUser>;

  beforeAll(async () => {
    portal = await startTestPortal();
    rootApp = await startEchoApp('root');
    grafanaApp = await startEchoApp('grafana');
    const port = await freePort();
    const block = documentedCaddyBlock(DOC, 'tested-caddy-paths', [
      'tools.example.com {',
      '127.0.0.1:8080',
      '127.0.0.1:3000',
      '127.0.0.1:3001',
      'handle /grafana/*',
      FIXED_HOST('tools.example.com'),
    ])
      .replace('tools.example.com {', `http://:${port} {`)
      .replace(FIXED_HOST('tools.example.com'), FIXED_HOST(`127.0.0.1:${port}`))
      .replaceAll('127.0.0.1:8080', `127.0.0.1:${new URL(portal.url).port}`)
      .replaceAll('127.0.0.1:3000', `127.0.0.1:${rootApp.port}`)
      .replaceAll('127.0.0.1:3001', `127.0.0.1:${grafanaApp.port}`);
    caddy = await startCaddy(caddyBinary!, port, block);
    const root = await createApp(portal.admin, { name: 'root', url: `${caddy.url}/` });
    const grafana = await createApp(portal.admin, { name: 'grafana', url: `${caddy.url}/grafana/` });
    users = { root: await portal.createUser({ apps: [root] }), grafana: await portal.createUser({ apps: [grafana] }) };
  });
  afterAll(async () => {
    await caddy?.stop();
    await rootApp?.close();
    await grafanaApp?.close();
    await portal?.close();
  });

  it('admits each user to the app of the path, and only that one', async () => {
    const grafana = await rawGet(caddy.url, '/grafana/d/1', asCookie(users.grafana.token));
    expect(grafana.echo).toMatchObject({ app: 'grafana', path: '/grafana/d/1', user: users.grafana.email });
    const root = await rawGet(caddy.url, '/wiki/page', asCookie(users.root.token));
    expect(root.echo).toMatchObject({ app: 'root', path: '/wiki/page', user: users.root.email });
    expect((await rawGet(caddy.url, '/wiki/page', asCookie(users.grafana.token))).status).toBe(403);
    expect((await rawGet(caddy.url, '/grafana/d/1', asCookie(users.root.token))).status).toBe(403);
  });

  it('never lets a path trick reach an app the user may not use', async () => {
    for (const [user, from, to] of [
      ['grafana', 'grafana', 'wiki'],
      ['root', 'wiki', 'grafana'],
    ] as const) {
      for (const path of pathTricks(from, to)) {
        const answer = await rawGet(caddy.url, path, asCookie(users[user].token));
        if (!answer.echo) {
          expect([path, answer.status]).not.toEqual([path, 200]);
          continue;
        }
        expect([path, answer.echo.app]).toEqual([path, user]);
        const read = normalizeRequestPath(answer.echo.path);
        expect([path, read.ok]).toEqual([path, true]);
        if (user === 'grafana') expect(read.ok && read.path.startsWith('/grafana/')).toBe(true);
        if (user === 'root') expect(read.ok && !read.path.toLowerCase().startsWith('/grafana')).toBe(true);
        expect(answer.echo.path).not.toMatch(/%2f|%5c|%25|;|%00|%c0|%e0|\\|#|\/\.\.?\/|%2e/i);
      }
    }
  });

  it('judges the app Caddy serves, whatever Host or absolute request line the client sends', async () => {
    // An app at another origin, granted to a user who holds nothing here: a forged Host must not lend its grant.
    const elsewhere = await createApp(portal.admin, { url: `http://${FORGED_HOST}/` });
    const stranger = await portal.createUser({ apps: [elsewhere] });
    for (const [shape, path] of [
      ['a forged Host', '/grafana/x'],
      ['an absolute request line', `${caddy.url}/grafana/x`],
      ['a forged Host at the root app', '/wiki/x'],
      ['an absolute request line at the root app', `${caddy.url}/wiki/x`],
    ]) {
      const hits = rootApp.hits() + grafanaApp.hits();
      const refused = await rawGet(caddy.url, path, { host: FORGED_HOST, ...asCookie(stranger.token) });
      expect([shape, refused.status, refused.echo?.app]).toEqual([shape, 403, undefined]);
      expect(rootApp.hits() + grafanaApp.hits()).toBe(hits);
      const user = path.includes('/grafana/') ? 'grafana' : 'root';
      const admitted = await rawGet(caddy.url, path, { host: FORGED_HOST, ...asCookie(users[user].token) });
      expect([shape, admitted.status]).toEqual([shape, 200]);
      expect(admitted.echo).toMatchObject({ app: user, user: users[user].email });
    }
  });

  it("removes the portal's credentials before every app of the host", async () => {
    for (const [user, path] of [
      ['grafana', '/grafana/x'],
      ['root', '/wiki/x'],
    ] as const) {
      for (const { label, sent, kept } of cookieCases(users[user].token)) {
        const answer = await rawGet(caddy.url, path, { cookie: sent });
        expect([label, answer.echo?.app, answer.echo?.cookie ?? '', answer.echo?.authorization]).toEqual([label, user, kept, null]);
      }
      const script = await rawGet(caddy.url, path, { authorization: `Bearer ${users[user].token}` });
      expect(script.echo).toMatchObject({ app: user, authorization: null });
    }
  });

  it('answers ambiguous paths 400 from the portal, reaching no app', async () => {
    const hits = rootApp.hits() + grafanaApp.hits();
    for (const path of [
      '/grafana/..%2fwiki/data',
      '/grafana/../wiki/data',
      '/wiki/%2e%2e/grafana/x',
      '/grafana/./x',
      '/wiki/..%5cgrafana/',
      '/grafana/..;/wiki',
      '/GRAFANA/x',
      '/Grafana/x',
      '/grafana/%c0%ae%c0%ae/wiki',
    ]) {
      const answer = await rawGet(caddy.url, path, asCookie(portal.admin.token!));
      expect([path, answer.status]).toEqual([path, 400]);
      expect(JSON.parse(answer.body).error.code).toBe('invalid_input');
    }
    expect(rootApp.hits() + grafanaApp.hits()).toBe(hits);
  });

  it('judges the path Caddy routes, whatever X-Original-URL or X-Forwarded-* the client sends', async () => {
    const spoofs: Record<string, string>[] = [
      { 'x-original-url': `${caddy.url}/grafana/` },
      { 'x-forwarded-uri': '/grafana/', 'x-forwarded-host': new URL(caddy.url).host, 'x-forwarded-proto': 'http' },
      { 'x-forwarded-host': 'evil.example.net', 'x-forwarded-proto': 'https' },
    ];
    for (const spoof of spoofs) {
      expect([spoof, (await rawGet(caddy.url, '/wiki/page', { ...spoof, ...asCookie(users.grafana.token) })).status]).toEqual([spoof, 403]);
      const mine = await rawGet(caddy.url, '/grafana/x', { ...spoof, ...asCookie(users.grafana.token) });
      expect(mine.echo).toMatchObject({ app: 'grafana', user: users.grafana.email });
    }
  });
});
