import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateApiKey, type App, type LogEntry } from '@tools-portal/core';
import { createApp as createKoaApp } from '@tools-portal/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, unique, useTestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal();

const VERIFY = '/api/auth/v1/verify';

function verify(query: string, headers: Record<string, string> = {}) {
  return portal.fetch(`${VERIFY}${query}`, { headers, redirect: 'manual' });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const cookie = (token: string) => ({ cookie: `accesstoken=${token}` });
const forwarded = (url: string, extra: Record<string, string> = {}) => {
  const { protocol, host, pathname, search } = new URL(url);
  return { 'x-forwarded-proto': protocol.slice(0, -1), 'x-forwarded-host': host, 'x-forwarded-uri': pathname + search, ...extra };
};
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

async function newestLog(): Promise<LogEntry[]> {
  return portal.admin.logs.page(1, 5);
}

describe('GET /verify', () => {
  let app: App;
  let granted: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    app = await createApp(portal.admin, { name: unique('wiki'), url: 'https://wiki.example.com/' });
    granted = await portal.createUser({ apps: [app] });
    other = await portal.createUser({ apps: [] });
  });

  it('admits a granted user by ?app= with the identity headers, for cookie, Bearer session and API key alike', async () => {
    const key = generateApiKey();
    await granted.api.accessTokens.create(key);
    for (const headers of [cookie(granted.token), bearer(granted.token), bearer(key)]) {
      const response = await verify(`?app=${encodeURIComponent(app.name)}`, headers);
      expect(response.status).toBe(200);
      expect(response.headers.get('remote-user')).toBe(granted.email);
      expect(response.headers.get('remote-email')).toBe(granted.email);
      expect(response.headers.get('remote-name')).toBe(granted.email);
      expect(response.headers.get('remote-groups')).toBe(granted.user.client.name);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('refuses a user without the app with 403, and admits admins to every app', async () => {
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(other.token))).status).toBe(403);
    const admin = await verify(`?app=${encodeURIComponent(app.name)}`, bearer(portal.admin.token!));
    expect(admin.status).toBe(200);
    expect(admin.headers.get('remote-groups')).toBe('Admin');
  });

  it('answers 403 for an app nobody registered, even to admins', async () => {
    expect((await verify('?app=no-such-app', bearer(portal.admin.token!))).status).toBe(403);
    expect((await verify('', { ...bearer(portal.admin.token!), 'x-original-url': 'https://unknown.example.com/' })).status).toBe(403);
    expect((await verify('', bearer(portal.admin.token!))).status).toBe(403);
  });

  it('sends the anonymous to the login: 401 with Location for nginx and XHR, 302 for a browser page through X-Forwarded-*', async () => {
    const original = 'https://wiki.example.com/page?x=1';
    const login = `${portal.url}/auth/#/login/${encodeURIComponent(original)}`;

    const nginx = await verify('', { 'x-original-url': original, ...BROWSER });
    expect(nginx.status).toBe(401);
    expect(nginx.headers.get('location')).toBe(login);

    const page = await verify('', forwarded(original, BROWSER));
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(login);

    const xhr = await verify('', forwarded(original, { ...BROWSER, 'x-requested-with': 'XMLHttpRequest' }));
    expect(xhr.status).toBe(401);
    expect(xhr.headers.get('location')).toBe(login);

    const post = await verify('', forwarded(original, { ...BROWSER, 'x-forwarded-method': 'POST' }));
    expect(post.status).toBe(401);
    expect((await verify('', forwarded(original, { accept: 'application/json' }))).status).toBe(401);

    const byName = await verify(`?app=${encodeURIComponent(app.name)}`);
    expect(byName.status).toBe(401);
    expect(byName.headers.get('location')).toBe(`${portal.url}/auth/#/login`);
  });

  it('treats an unknown or expired token as not logged in', async () => {
    const response = await verify('', { 'x-original-url': 'https://wiki.example.com/', ...cookie('not-a-session') });
    expect(response.status).toBe(401);
    expect((await verify('', { 'x-original-url': 'https://wiki.example.com/', ...bearer(generateApiKey()) })).status).toBe(401);
  });

  it('never trusts Remote-* headers the client sends', async () => {
    const spoof = { 'remote-user': 'admin@example.com', 'remote-groups': 'Admin', 'remote-email': 'admin@example.com' };
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, spoof)).status).toBe(401);
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, { ...spoof, ...cookie(other.token) })).status).toBe(403);
    const mine = await verify(`?app=${encodeURIComponent(app.name)}`, { ...spoof, ...cookie(granted.token) });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('remote-user')).toBe(granted.email);
    expect(mine.headers.get('remote-groups')).toBe(granted.user.client.name);
  });

  it('logs denials but not allowed requests', async () => {
    const before = (await newestLog())[0].id;
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(granted.token))).status).toBe(200);
    expect((await newestLog())[0].id).toBe(before);

    // Identical denials of a signed-in user within a minute share a row too (issue 25, point 11).
    const deniedEvent = `forward auth denied: ${other.email} may not use app ${app.name}`;
    const deniedNow = async () =>
      (await portal.admin.logs.page(1, 100)).filter((entry) => entry.event === deniedEvent).reduce((total, entry) => total + entry.count, 0);
    const deniedBefore = await deniedNow();
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(other.token))).status).toBe(403);
    const denied = (await portal.admin.logs.page(1, 100)).find((entry) => entry.event === deniedEvent);
    expect(denied).toMatchObject({ user: other.email, client: other.user.client.name, actor: other.email });
    expect(await deniedNow()).toBe(deniedBefore + 1);

    // Anonymous denials within a minute share a row and add to its count (issue 12, point 4).
    const anonymousEvent = `forward auth denied: not logged in, for app ${app.name}`;
    const countNow = async () =>
      (await portal.admin.logs.page(1, 100)).filter((entry) => entry.event === anonymousEvent).reduce((total, entry) => total + entry.count, 0);
    const earlier = await countNow();
    expect((await verify('', { 'x-original-url': 'https://wiki.example.com/secret' })).status).toBe(401);
    const anonymous = (await portal.admin.logs.page(1, 100)).find((entry) => entry.event === anonymousEvent);
    expect(anonymous).toMatchObject({ user: '', client: '' });
    expect(await countNow()).toBe(earlier + 1);
  });
});

describe('GET /verify: the app by longest URL prefix', () => {
  let root: App;
  let grafana: App;
  let user: TestUser;
  beforeAll(async () => {
    const host = `${unique('tools')}.example.com`;
    root = await createApp(portal.admin, { url: `https://${host}/` });
    grafana = await createApp(portal.admin, { url: `https://${host}/grafana/` });
    await createApp(portal.admin, { url: `https://${host}/grafana/admin` });
    user = await portal.createUser({ apps: [grafana] });
  });
  const at = (path: string) => `https://${new URL(root.url).host}${path}`;

  it('picks the longest registered prefix, at a path boundary, for both header styles', async () => {
    for (const headers of [(url: string) => ({ 'x-original-url': url }), (url: string) => forwarded(url)]) {
      const status = async (path: string) => (await verify('', { ...headers(at(path)), ...cookie(user.token) })).status;
      expect(await status('/grafana/d/abc?orgId=1')).toBe(200);
      expect(await status('/grafana')).toBe(200);
      expect(await status('/grafana/')).toBe(200);
      expect(await status('/grafana/admin')).toBe(403);
      expect(await status('/grafana/admin/users')).toBe(403);
      expect(await status('/grafana/administration')).toBe(200);
      expect(await status('/grafanax')).toBe(403);
      expect(await status('/')).toBe(403);
    }
    // A dot segment is refused, never resolved (the forwarded helper's URL parser would resolve it).
    expect((await verify('', { 'x-original-url': at('/grafana/../other'), ...cookie(user.token) })).status).toBe(400);
  });

  it('matches scheme, host and port exactly', async () => {
    const status = async (url: string) => (await verify('', { 'x-original-url': url, ...cookie(user.token) })).status;
    expect(await status(at('/grafana/').replace('https:', 'http:'))).toBe(403);
    expect(await status(at('/grafana/').replace('.example.com', '.example.com:8443'))).toBe(403);
    expect(await status(at('/grafana/').toUpperCase().replace('/GRAFANA/', '/grafana/'))).toBe(200);
  });

  it('answers bad proxy headers with a denial, never an error', async () => {
    const cases: Record<string, string>[] = [
      { 'x-original-url': 'not a url' },
      { 'x-original-url': `https://x.example.com/${'a'.repeat(5000)}` },
      { 'x-original-url': 'javascript:alert(1)' },
      { 'x-forwarded-host': 'evil.example.com/@x', 'x-forwarded-uri': '/grafana/' },
      { 'x-forwarded-host': new URL(root.url).host, 'x-forwarded-proto': 'ftp', 'x-forwarded-uri': '/grafana/' },
      { 'x-forwarded-host': new URL(root.url).host, 'x-forwarded-uri': '//evil.example.com/' },
      { 'x-forwarded-host': new URL(root.url).host, 'x-forwarded-uri': 'grafana' },
    ];
    for (const headers of cases) {
      expect((await verify('', { ...headers, ...cookie(user.token) })).status).toBe(403);
      expect((await verify('', headers)).status).toBe(401);
    }
    expect((await verify('?app=a&app=b', cookie(user.token))).status).toBe(403);
  });
});

describe('GET /verify: path tricks (the app is judged on the path as proxies and apps read it)', () => {
  let host: string;
  let grafana: App;
  let user: TestUser;
  beforeAll(async () => {
    host = `${unique('paths')}.example.com`;
    await createApp(portal.admin, { url: `https://${host}/` });
    grafana = await createApp(portal.admin, { url: `https://${host}/grafana/` });
    await createApp(portal.admin, { url: `https://${host}/secret/` });
    user = await portal.createUser({ apps: [grafana] });
  });
  const styles = {
    nginx: (path: string) => ({ 'x-original-url': `https://${host}${path}` }),
    forwarded: (path: string) => ({ 'x-forwarded-proto': 'https', 'x-forwarded-host': host, 'x-forwarded-uri': path }),
  };

  it.each(Object.keys(styles))('judges decoded paths by the app they reach; names with dots are no dot segments (%s style)', async (style) => {
    const headers = styles[style as keyof typeof styles];
    const status = async (path: string) => (await verify('', { ...headers(path), ...cookie(user.token) })).status;
    for (const path of [
      '/grafana/x',
      '/%67rafana/x',
      '/gr%61fana/',
      '/grafana/..x',
      '/grafana/a..b',
      '/grafana/.well-known/x',
      '/grafana/%2e%2ex',
      '//grafana//x',
      '/grafana/%c3%a9',
      '/grafana/a%20b',
    ]) {
      expect([path, await status(path)]).toEqual([path, 200]);
    }
    for (const path of ['/secret/x', '/%73ecret/', '/grafanax', '/', '/.well-known/x', '/..grafana/x']) {
      expect([path, await status(path)]).toEqual([path, 403]);
    }
  });

  const AMBIGUOUS = [
    '/grafana/..%2fsecret/data',
    '/grafana/..%2Fsecret/data',
    '/grafana%2f..%2fsecret/x',
    '/grafana/..%5csecret/x',
    '/grafana/..%5Csecret/x',
    '/grafana/..\\secret/x',
    '/grafana/..%252fsecret/x',
    '/grafana/..%255csecret/x',
    '/grafana/%252e%252e/secret/x',
    '/grafana/..;/secret/x',
    '/grafana;/../secret/x',
    '/grafana/..%3b/secret/x',
    '/grafana/%00/x',
    '/grafana/..%00/secret',
    '/grafana/%c0%ae%c0%ae/secret/x',
    '/grafana/%e0%80%ae%e0%80%ae/secret/x',
    '/grafana/%c0%af',
    '/grafana/%zz',
    '/grafana/%',
    '/grafana/%u002e%u002e/secret',
    '/../secret/x',
    '/grafana//../secret/x',
    '/grafana/../secret/x',
    '/grafana/./x',
    '/secret/../grafana/x',
    '/grafana/%2e%2e/secret/x',
    '/grafana/%2E%2E/secret/x',
    '/grafana/.%2e/secret/x',
    '/grafana/%2E./secret/x',
    '/grafana/%2e/x',
    '/grafana/x/../../secret',
    '/grafana/x/..',
    '/grafana%3f/../secret/x',
    '/grafana/x#/../../secret/x',
    '/GRAFANA/x',
    '/Secret/x',
  ];

  it.each(Object.keys(styles))('refuses an ambiguous path with 400, whoever asks (%s style)', async (style) => {
    const headers = styles[style as keyof typeof styles];
    for (const path of AMBIGUOUS) {
      for (const credential of [cookie(user.token), bearer(portal.admin.token!), {}]) {
        const response = await verify('', { ...headers(path), ...credential });
        expect([path, response.status]).toEqual([path, 400]);
        expect(response.headers.get('location')).toBeNull();
        expect((await response.json()).error.code).toBe('invalid_input');
      }
    }
  });

  it('logs the refusal', async () => {
    // Within a minute the user's refusals for this reason share a row, which names the first URL (issue 25, point 11).
    const reason = 'forward auth denied: ambiguous original URL (the path has an encoded slash): ';
    const entries = async () => (await portal.admin.logs.page(1, 100)).filter((entry) => entry.user === user.email && entry.event.startsWith(reason));
    const countOf = async () => (await entries()).reduce((total, entry) => total + entry.count, 0);
    const before = await countOf();
    expect((await verify('', { ...styles.nginx('/grafana/..%2fsecret/data'), ...cookie(user.token) })).status).toBe(400);
    expect(await countOf()).toBe(before + 1);
    expect((await entries()).every((entry) => entry.event.startsWith(`${reason}https://${host}/`))).toBe(true);
  });

  it('lets ?app=NAME decide alone, whatever the path', async () => {
    for (const path of AMBIGUOUS) {
      const response = await verify(`?app=${encodeURIComponent(grafana.name)}`, { ...styles.nginx(path), ...cookie(user.token) });
      expect([path, response.status]).toEqual([path, 200]);
    }
  });

  it('refuses X-Original-URL and X-Forwarded-Uri together, so that a client cannot choose between them', async () => {
    for (const [original, forwardedPath] of [
      ['/grafana/x', '/secret/x'],
      ['/secret/x', '/grafana/x'],
      ['/grafana/x', '/grafana/x'],
    ]) {
      const headers = { ...styles.nginx(original), ...styles.forwarded(forwardedPath), ...cookie(user.token) };
      expect((await verify('', headers)).status).toBe(400);
    }
    // X-Forwarded-Host/Proto beside X-Original-URL (ingress-nginx sends them) do not contradict it.
    const withHost = { ...styles.nginx('/grafana/x'), 'x-forwarded-host': 'evil.example.net', 'x-forwarded-proto': 'http', ...cookie(user.token) };
    expect((await verify('', withHost)).status).toBe(200);
  });
});

describe('GET /verify: changes through this instance take effect at once', () => {
  const warm = async (query: string, headers: Record<string, string>) => {
    expect((await verify(query, headers)).status).toBe(200);
  };

  it('a revoked grant, and a grant given', async () => {
    const app = await createApp(portal.admin);
    const other = await createApp(portal.admin);
    const { token, user } = await portal.createUser({ apps: [app] });
    await warm(`?app=${encodeURIComponent(app.name)}`, cookie(token));
    expect((await verify(`?app=${encodeURIComponent(other.name)}`, cookie(token))).status).toBe(403);
    await portal.admin.apps.removeUser(app.id, user.id);
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(token))).status).toBe(403);
    await portal.admin.users.grant(user.id, other.id);
    expect((await verify(`?app=${encodeURIComponent(other.name)}`, cookie(token))).status).toBe(200);
  });

  it('logout', async () => {
    const app = await createApp(portal.admin);
    const { token, api } = await portal.createUser({ apps: [app] });
    await warm(`?app=${encodeURIComponent(app.name)}`, cookie(token));
    await api.auth.logout();
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(token))).status).toBe(401);
  });

  it("an admin's end sessions, and user deletion", async () => {
    const app = await createApp(portal.admin);
    const first = await portal.createUser({ apps: [app] });
    await warm(`?app=${encodeURIComponent(app.name)}`, bearer(first.token));
    await portal.admin.users.endSessions(first.user.id);
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, bearer(first.token))).status).toBe(401);

    const second = await portal.createUser({ apps: [app] });
    await warm(`?app=${encodeURIComponent(app.name)}`, bearer(second.token));
    await portal.admin.users.delete(second.user.id);
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, bearer(second.token))).status).toBe(401);
  });

  it('client deletion', async () => {
    const app = await createApp(portal.admin);
    const { token, user } = await portal.createUser({ apps: [app] });
    await warm(`?app=${encodeURIComponent(app.name)}`, cookie(token));
    await portal.admin.clients.delete(user.client.id);
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(token))).status).toBe(401);
  });

  it('API key deletion', async () => {
    const app = await createApp(portal.admin);
    const { api } = await portal.createUser({ apps: [app] });
    const key = generateApiKey();
    await api.accessTokens.create(key);
    await warm(`?app=${encodeURIComponent(app.name)}`, bearer(key));
    await api.accessTokens.delete(key);
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, bearer(key))).status).toBe(401);
  });

  it('app deletion, and an app moved to another URL', async () => {
    const app = await createApp(portal.admin);
    const { token } = await portal.createUser({ apps: [app] });
    await warm('', { 'x-original-url': `${app.url}x`, ...cookie(token) });
    const moved = `https://${unique('moved')}.example.com/`;
    await portal.admin.apps.update({ ...app, url: moved });
    expect((await verify('', { 'x-original-url': `${app.url}x`, ...cookie(token) })).status).toBe(403);
    await warm('', { 'x-original-url': `${moved}x`, ...cookie(token) });
    await portal.admin.apps.delete(app.id);
    expect((await verify('', { 'x-original-url': `${moved}x`, ...cookie(token) })).status).toBe(403);
    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(token))).status).toBe(403);
  });
});

describe('GET /verify: the hot path', () => {
  it('answers from the cache, with no database query once warm', async () => {
    const app = await createApp(portal.admin);
    const { token } = await portal.createUser({ apps: [app] });
    const queries: string[] = [];
    const onQuery = (query: { sql: string }) => queries.push(query.sql);
    await verify(`?app=${encodeURIComponent(app.name)}`, cookie(token));
    portal.deps.db.on('query', onQuery);
    try {
      for (let i = 0; i < 3; i++) expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(token))).status).toBe(200);
      expect(queries).toEqual([]);
      // The rest of the API still resolves its caller from the database on every call.
      await portal.client(token).users.me();
      expect(queries.length).toBeGreaterThan(0);
    } finally {
      portal.deps.db.removeListener('query', onQuery);
    }
  });

  it('answers HEAD and a trailing slash like GET, and other methods with a plain API error', async () => {
    const app = await createApp(portal.admin);
    const { token, email } = await portal.createUser({ apps: [app] });
    const head = await portal.fetch(`${VERIFY}?app=${encodeURIComponent(app.name)}`, { method: 'HEAD', headers: cookie(token) });
    expect(head.status).toBe(200);
    expect(head.headers.get('remote-user')).toBe(email);
    expect((await verify(`/?app=${encodeURIComponent(app.name)}`, cookie(token))).status).toBe(200);
    const post = await portal.fetch(VERIFY, { method: 'POST', headers: bearer(token) });
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('sends non-ASCII names in identity headers percent-encoded', async () => {
    const app = await createApp(portal.admin);
    const owner = await portal.admin.clients.create(`Müller ${unique('客户')} 100%`);
    const { token } = await portal.createUser({ apps: [app], client: owner });
    const response = await verify(`?app=${encodeURIComponent(app.name)}`, cookie(token));
    expect(response.status).toBe(200);
    const groups = response.headers.get('remote-groups')!;
    expect(groups).toMatch(/^[\x20-\x7e]+$/);
    expect(decodeURIComponent(groups)).toBe(owner.name);
  });
});

describe('GET /verify: every spelling the router accepts is the same cached implementation', () => {
  // Raw, so that nothing normalizes the request target on the way.
  function raw(
    target: string,
    headers: Record<string, string>,
    method = 'GET',
    base = portal.url,
  ): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
    const { hostname, port } = new URL(base);
    return new Promise((resolve, reject) => {
      const request = http.request({ host: hostname, port, path: target, method, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          const { date, 'x-request-id': _id, connection, 'keep-alive': _alive, ...rest } = response.headers;
          resolve({ status: response.statusCode ?? 0, headers: rest, body });
        });
      });
      request.on('error', reject);
      request.end();
    });
  }
  const SPELLINGS = [
    '/api/auth/v1/Verify',
    '/api/auth/v1/VERIFY',
    '/api/auth/v1/vErIfY/',
    '/api/AUTH/V1/verify',
    '/api/Auth/v1/Verify/',
    '/api/auth/v1/verify#fragment',
  ];

  it('answers like /verify, for an allowed, an anonymous, a refused and an ambiguous request, GET and HEAD', async () => {
    const app = await createApp(portal.admin, { url: `https://${unique('spell')}.example.com/` });
    const granted = await portal.createUser({ apps: [app] });
    const other = await portal.createUser({ apps: [] });
    const questions: [string, Record<string, string>][] = [
      [`?app=${encodeURIComponent(app.name)}`, cookie(granted.token)],
      [`?app=${encodeURIComponent(app.name)}`, bearer(granted.token)],
      ['', { 'x-original-url': `${app.url}page`, accept: 'text/html' }],
      ['', { ...forwarded(`${app.url}page`), accept: 'text/html' }],
      ['', { 'x-original-url': `${app.url}page`, ...cookie(other.token) }],
      ['', { 'x-original-url': `${app.url}a/..%2fb`, ...cookie(granted.token) }],
    ];
    for (const [query, headers] of questions) {
      for (const method of ['GET', 'HEAD']) {
        const expected = await raw(`${VERIFY}${query}`, headers, method);
        for (const spelling of SPELLINGS) {
          const [path, fragment] = spelling.split('#');
          const target = fragment === undefined ? `${path}${query}` : `${path}${query}#${fragment}`;
          expect([target, method, await raw(target, headers, method)]).toEqual([target, method, expected]);
        }
      }
    }
  });

  it('answers from the cache, with no database query once warm, for every spelling', async () => {
    const app = await createApp(portal.admin);
    const { token } = await portal.createUser({ apps: [app] });
    const query = `?app=${encodeURIComponent(app.name)}`;
    for (const spelling of SPELLINGS) expect((await raw(`${spelling.split('#')[0]}${query}`, cookie(token))).status).toBe(200);
    const queries: string[] = [];
    const onQuery = (entry: { sql: string }) => queries.push(entry.sql);
    portal.deps.db.on('query', onQuery);
    try {
      for (const spelling of SPELLINGS) {
        expect((await raw(`${spelling.split('#')[0]}${query}`, cookie(token))).status).toBe(200);
        expect([spelling, queries]).toEqual([spelling, []]);
      }
    } finally {
      portal.deps.db.removeListener('query', onQuery);
    }
  });

  it('the declared Koa route, reached without the fast path, answers byte for byte the same', async () => {
    const app = await createApp(portal.admin, { url: `https://${unique('koa')}.example.com/` });
    const granted = await portal.createUser({ apps: [app] });
    const koaOnly = http.createServer(createKoaApp(portal.deps).callback());
    await new Promise<void>((resolve) => koaOnly.listen(0, '127.0.0.1', resolve));
    const koaUrl = `http://127.0.0.1:${(koaOnly.address() as AddressInfo).port}`;
    try {
      for (const [query, headers] of [
        [`?app=${encodeURIComponent(app.name)}`, cookie(granted.token)],
        ['', { 'x-original-url': `${app.url}page` }],
        ['', { ...forwarded(`${app.url}page`), accept: 'text/html' }],
        ['', { 'x-original-url': 'https://nowhere.example.com/', ...cookie(granted.token) }],
        ['', { 'x-original-url': `${app.url}..;/x`, ...cookie(granted.token) }],
      ] as [string, Record<string, string>][]) {
        for (const method of ['GET', 'HEAD']) {
          const expected = await raw(`${VERIFY}${query}`, headers, method);
          expect([query, method, await raw(`${VERIFY}${query}`, headers, method, koaUrl)]).toEqual([query, method, expected]);
        }
      }
    } finally {
      await new Promise((resolve) => koaOnly.close(resolve));
    }
  });

  it('writes its errors in the one shape every API error has', async () => {
    const api = await portal.fetch('/api/auth/v1/user/me');
    const denied = await verify('', { 'x-original-url': 'https://wiki.example.com/' });
    expect(denied.status).toBe(api.status);
    expect(denied.headers.get('content-type')).toBe(api.headers.get('content-type'));
    expect(await denied.text()).toBe(await api.text());
    const other = await portal.createUser({ apps: [] });
    const refused = await verify(`?app=${unique('nothing')}`, cookie(other.token));
    expect(await refused.json()).toEqual({ error: { code: 'forbidden', message: 'you may not use this app' } });
    const ambiguous = await verify('', { 'x-original-url': 'https://wiki.example.com/a/..%2fb', ...cookie(other.token) });
    expect(await ambiguous.json()).toEqual({
      error: { code: 'invalid_input', message: 'X-Original-URL: the path has an encoded slash', details: { field: 'X-Original-URL' } },
    });
  });

  it('answers the absolute form of the request target like /verify', async () => {
    const app = await createApp(portal.admin);
    const { token } = await portal.createUser({ apps: [app] });
    const query = `?app=${encodeURIComponent(app.name)}`;
    const expected = await raw(`${VERIFY}${query}`, cookie(token));
    expect(await raw(`${portal.url}${VERIFY}${query}`, cookie(token))).toEqual(expected);
    expect(await raw(`${portal.url}/api/auth/v1/Verify${query}`, cookie(token))).toEqual(expected);
  });
});
