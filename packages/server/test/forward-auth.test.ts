import { generateApiKey, type App, type LogEntry } from '@tools-portal/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, unique, useTestPortal, type TestUser } from './support.js';

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
    expect(byName.headers.get('location')).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(app.url)}`);
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

    expect((await verify(`?app=${encodeURIComponent(app.name)}`, cookie(other.token))).status).toBe(403);
    const [denied] = await newestLog();
    expect(denied).toMatchObject({ user: other.email, client: other.user.client.name, event: `forward auth denied: ${other.email} may not use app ${app.name}` });

    // Anonymous denials within a minute share a row and add to its count (issue 12, point 4).
    const anonymousEvent = `forward auth denied: not logged in, for app ${app.name}`;
    const countNow = async () => (await portal.admin.logs.page(1, 100)).filter((entry) => entry.event === anonymousEvent).reduce((total, entry) => total + entry.count, 0);
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
      expect(await status('/grafana/../other')).toBe(403);
    }
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
