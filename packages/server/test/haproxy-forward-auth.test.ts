/**
 * The HAProxy configurations of docs/forward-auth.md with the Lua action of deploy/haproxy/, run
 * for real: Debian's HAProxy 2.6 on a loopback ephemeral port in front of small apps and a real
 * portal, over HTTP/1.1 and h2c. Without HAProxy this file skips loudly, except under CI=true,
 * where it fails.
 */
import { fileURLToPath } from 'node:url';
import { generateApiKey, normalizeRequestPath, type App } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieCases } from './proxies/credential-stripping.js';
import { documentedHAProxyBlock, findHAProxy, LUA_ACTION, startHAProxy, type HAProxy } from './proxies/haproxy.js';
import { h2Get, pathTricks, rawGet, startEchoApp, type EchoApp, type RawAnswer } from './proxies/proxied-app.js';
import { createApp, freePort, startTestPortal, type TestPortal, type TestUser } from './support/support.js';

const DOC = fileURLToPath(new URL('../../../docs/forward-auth.md', import.meta.url));

const haproxyBinary = findHAProxy('haproxy-forward-auth.test.ts');

describe.runIf(!haproxyBinary && process.env.CI === 'true')('haproxy forward auth', () => {
  it('needs haproxy under CI=true', () => {
    throw new Error('haproxy is not installed: .ci/run installs it with apt-get');
  });
});

const asCookie = (token: string) => ({ cookie: `accesstoken=${token}` });

/** A host the client makes up: in the Host header (or :authority), or beside an absolute request line. */
const FORGED_HOST = 'elsewhere.example.test';

/** The documented action line: the verify URL and the frontend's own host. */
const ACTION = (verify: string, host: string) => `http-request lua.portal-auth ${verify} ${host}`;

/** The documented global and defaults sections, loading the repository's Lua action. */
function documentedGlobal(): string {
  return documentedHAProxyBlock(DOC, 'tested-haproxy-global', ['expose-experimental-directives', 'lua-load /etc/haproxy/portal-auth.lua']).replace(
    'lua-load /etc/haproxy/portal-auth.lua',
    `lua-load ${LUA_ACTION}`,
  );
}

/** A documented frontend block, pointed at the test's ports; `raw` leaves out the normalize-uri rules (HAProxy's default). */
function documentedFrontend(marker: string, ports: { haproxy: number; portal: number; apps: number[] }, host: string, raw = false): string {
  const verify = `http://127.0.0.1:8080/api/auth/v1/verify${marker === 'tested-haproxy' ? '?app=wiki' : ''}`;
  let block = documentedHAProxyBlock(DOC, marker, ['bind :80', '127.0.0.1:8080', '127.0.0.1:3000', 'normalize-uri path-strip-dotdot', ACTION(verify, host)])
    .replace('bind :80', `bind 127.0.0.1:${ports.haproxy}`)
    .replace(ACTION(verify, host), ACTION(verify, `127.0.0.1:${ports.haproxy}`))
    .replaceAll('127.0.0.1:8080', `127.0.0.1:${ports.portal}`)
    .replaceAll('127.0.0.1:3000', `127.0.0.1:${ports.apps[0]}`)
    .replaceAll('127.0.0.1:3001', `127.0.0.1:${ports.apps[1]}`);
  if (raw) block = block.replace(/^\s*http-request normalize-uri .*$/gm, '');
  return `${documentedGlobal()}\n${block}`;
}

/** Dot segments in every spelling, leading from app `from` to app `to`. */
function dotSegmentTricks(from: string, to: string): string[] {
  return ['..', '%2e%2e', '%2E%2E', '.%2e', '%2E.', '%2e.'].flatMap((dots) => [
    `/${from}/${dots}/${to}/data`,
    `/${from}/x/${dots}/${dots}/${to}/data`,
    `/${from}/./${dots}/${to}/data`,
  ]);
}

/** Both transports: HTTP/1.1 (exactly as given) and h2c (prior knowledge). */
const transports = {
  'HTTP/1.1': (url: string, path: string, headers: Record<string, string | string[]> = {}) => rawGet(url, path, headers),
  h2c: (url: string, path: string, headers: Record<string, string | string[]> = {}) => {
    const { host, ...rest } = headers;
    return h2Get(url, path, rest, typeof host === 'string' ? host : undefined);
  },
} satisfies Record<string, (url: string, path: string, headers?: Record<string, string | string[]>) => Promise<RawAnswer>>;

describe.runIf(Boolean(haproxyBinary))('HAProxy with the Lua action in front of an app (docs/forward-auth.md)', () => {
  let portal: TestPortal;
  let echo: EchoApp;
  let haproxy: HAProxy;
  let wiki: App;
  let granted: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    portal = await startTestPortal();
    echo = await startEchoApp('wiki');
    const port = await freePort();
    haproxy = await startHAProxy(
      haproxyBinary!,
      port,
      documentedFrontend('tested-haproxy', { haproxy: port, portal: Number(new URL(portal.url).port), apps: [echo.port] }, 'wiki.example.com'),
    );
    wiki = await createApp(portal.admin, { name: 'wiki', url: `${haproxy.url}/` });
    granted = await portal.createUser({ apps: [wiki] });
    other = await portal.createUser({ apps: [] });
  });
  afterAll(async () => {
    await haproxy?.stop();
    await echo?.close();
    await portal?.close();
  });

  for (const [transport, get] of Object.entries(transports)) {
    describe(transport, () => {
      it('sends a browser that is not logged in to the login screen, and back afterwards; a script gets 401', async () => {
        const before = echo.hits();
        const page = await get(haproxy.url, '/page?x=1', { accept: 'text/html' });
        expect(page.status).toBe(302);
        expect(page.headers.location).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${haproxy.url}/page?x=1`)}`);
        const script = await get(haproxy.url, '/api/data', { accept: 'application/json' });
        expect(script.status).toBe(401);
        expect(echo.hits()).toBe(before);
      });

      it('admits a granted user, and the app sees who it is, whatever identity headers the client sent', async () => {
        const spoof = {
          'remote-user': 'admin@example.com',
          'remote-groups': 'Admin',
          'remote-email': 'admin@example.com',
          'remote-name': 'Boss',
          'remote-roles': 'admin',
        };
        const response = await get(haproxy.url, '/page', { ...spoof, ...asCookie(granted.token) });
        expect(response.status).toBe(200);
        expect(response.echo).toMatchObject({
          app: 'wiki',
          path: '/page',
          user: granted.email,
          email: granted.email,
          name: granted.email,
          groups: granted.user.client.name,
        });
        expect((response.echo as { roles: string | null }).roles ?? '').toBe('');
      });

      it('refuses a user without the app, never reaching the app: a script gets 403, a browser the denied page', async () => {
        const before = echo.hits();
        expect((await get(haproxy.url, '/page', asCookie(other.token))).status).toBe(403);
        const page = await get(haproxy.url, '/page', { ...asCookie(other.token), accept: 'text/html' });
        expect(page.status).toBe(302);
        expect(page.headers.location).toBe(`${portal.url}/auth/#/denied/wiki`);
        expect(echo.hits()).toBe(before);
      });

      it("removes the portal's cookie, wherever it stands, and keeps the app's own cookies", async () => {
        const cases = [
          ...cookieCases(granted.token),
          { label: 'two of them', sent: `a=1; accesstoken=${granted.token}; accesstoken=${other.token}; b=2`, kept: 'a=1; b=2' },
        ];
        for (const { label, sent, kept } of cases) {
          const answer = await get(haproxy.url, '/page', { cookie: sent });
          expect([label, answer.status]).toEqual([label, 200]);
          expect([label, answer.echo?.cookie ?? '']).toEqual([label, kept]);
          expect(answer.body).not.toContain(granted.token);
        }
      });

      it('removes the Authorization header: the portal reads it, the app never gets it', async () => {
        const key = generateApiKey();
        await granted.api.accessTokens.create(key);
        for (const authorization of [`Bearer ${key}`, `Bearer ${granted.token}`, `bearer ${key}`]) {
          const answer = await get(haproxy.url, '/page', { authorization, cookie: 'a=1' });
          expect(answer.status).toBe(200);
          expect(answer.echo).toMatchObject({ user: granted.email, authorization: null, cookie: 'a=1' });
        }
      });

      it("builds the original URL from the frontend, never from the client's Host or X-Original-URL / X-Forwarded-*", async () => {
        const spoofs: Record<string, string>[] = [
          { host: FORGED_HOST },
          { 'x-original-url': 'https://evil.example.net/' },
          { 'x-forwarded-host': 'evil.example.net', 'x-forwarded-proto': 'https', 'x-forwarded-uri': '/x' },
        ];
        for (const spoof of spoofs) {
          const anonymous = await get(haproxy.url, '/page?x=1', { ...spoof, accept: 'text/html' });
          expect([spoof, anonymous.status]).toEqual([spoof, 302]);
          expect(anonymous.headers.location).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(`${haproxy.url}/page?x=1`)}`);
          expect((await get(haproxy.url, '/page', { ...spoof, ...asCookie(granted.token) })).echo).toMatchObject({ app: 'wiki', user: granted.email });
        }
      });
    });
  }

  it('refuses an absolute request line with another Host itself (HAProxy checks they agree), and admits one that agrees', async () => {
    const before = echo.hits();
    for (const credential of [{ accept: 'text/html' }, asCookie(granted.token)]) {
      const answer = await rawGet(haproxy.url, `${haproxy.url}/page?x=1`, { host: FORGED_HOST, ...credential });
      expect(answer.status).toBe(400);
    }
    expect(echo.hits()).toBe(before);
    const agreeing = await rawGet(haproxy.url, `${haproxy.url}/page?x=1`, { host: new URL(haproxy.url).host, ...asCookie(granted.token) });
    expect(agreeing.echo).toMatchObject({ app: 'wiki', user: granted.email });
  });

  it('stops admitting a user at once when the grant is revoked', async () => {
    const user = await portal.createUser({ apps: [wiki] });
    expect((await rawGet(haproxy.url, '/', asCookie(user.token))).status).toBe(200);
    await portal.admin.users.revoke(user.user.id, wiki.id);
    expect((await rawGet(haproxy.url, '/', asCookie(user.token))).status).toBe(403);
  });
});

for (const raw of [false, true]) {
  const title = raw ? 'without the normalize-uri rules (HAProxy routes on the raw path)' : 'as documented';
  describe.runIf(Boolean(haproxyBinary))(`HAProxy in front of several apps on one host, judged by path, ${title} (docs/forward-auth.md)`, () => {
    let portal: TestPortal;
    let rootApp: EchoApp;
    let grafanaApp: EchoApp;
    let haproxy: HAProxy;
    let users: Record<string, TestUser>;
    let stranger: TestUser;

    beforeAll(async () => {
      portal = await startTestPortal();
      rootApp = await startEchoApp('root');
      grafanaApp = await startEchoApp('grafana');
      const port = await freePort();
      const config = documentedFrontend(
        'tested-haproxy-paths',
        { haproxy: port, portal: Number(new URL(portal.url).port), apps: [rootApp.port, grafanaApp.port] },
        'tools.example.com',
        raw,
      );
      haproxy = await startHAProxy(haproxyBinary!, port, config);
      const root = await createApp(portal.admin, { name: 'root', url: `${haproxy.url}/` });
      const grafana = await createApp(portal.admin, { name: 'grafana', url: `${haproxy.url}/grafana/` });
      users = { root: await portal.createUser({ apps: [root] }), grafana: await portal.createUser({ apps: [grafana] }) };
      // An app at another origin, granted to a user who holds nothing here: a forged Host must not lend its grant.
      stranger = await portal.createUser({ apps: [await createApp(portal.admin, { url: `http://${FORGED_HOST}/` })] });
    });
    afterAll(async () => {
      await haproxy?.stop();
      await rootApp?.close();
      await grafanaApp?.close();
      await portal?.close();
    });

    const hits = () => rootApp.hits() + grafanaApp.hits();

    for (const [transport, get] of Object.entries(transports)) {
      it(`admits each user to the app of the path, and only that one (${transport})`, async () => {
        const grafana = await get(haproxy.url, '/grafana/d/1', asCookie(users.grafana.token));
        expect(grafana.echo).toMatchObject({ app: 'grafana', path: '/grafana/d/1', user: users.grafana.email });
        const root = await get(haproxy.url, '/wiki/page', asCookie(users.root.token));
        expect(root.echo).toMatchObject({ app: 'root', path: '/wiki/page', user: users.root.email });
        expect((await get(haproxy.url, '/wiki/page', asCookie(users.grafana.token))).status).toBe(403);
        expect((await get(haproxy.url, '/grafana/d/1', asCookie(users.root.token))).status).toBe(403);
        const dotted = await get(haproxy.url, '/grafana/.well-known/a..b', asCookie(users.grafana.token));
        expect(dotted.echo).toMatchObject({ app: 'grafana', path: '/grafana/.well-known/a..b' });
      });

      it(`judges the app HAProxy serves, whatever Host the client sends (${transport})`, async () => {
        for (const path of ['/grafana/x', '/wiki/x']) {
          const before = hits();
          const refused = await get(haproxy.url, path, { host: FORGED_HOST, ...asCookie(stranger.token) });
          expect([path, refused.status, refused.echo?.app]).toEqual([path, 403, undefined]);
          expect(hits()).toBe(before);
          const user = path.startsWith('/grafana/') ? 'grafana' : 'root';
          const admitted = await get(haproxy.url, path, { host: FORGED_HOST, ...asCookie(users[user].token) });
          expect(admitted.echo).toMatchObject({ app: user, user: users[user].email });
        }
      });

      it(`never lets a path trick reach an app the user may not use, in either direction (${transport})`, async () => {
        // Both directions for each user: a proxy that routes on the raw path goes by the prefix
        // (`/grafana/../wiki` to grafana), one that normalizes by where it leads.
        for (const [user, from, to] of [
          ['grafana', 'grafana', 'wiki'],
          ['grafana', 'wiki', 'grafana'],
          ['root', 'wiki', 'grafana'],
          ['root', 'grafana', 'wiki'],
        ] as const) {
          // Routing on the raw path, HAProxy neither merges slashes nor decodes `%67`, while the
          // portal does: the normalize-uri rules are required (docs/forward-auth.md), and without
          // them only dot segments, which the portal refuses, are safe.
          for (const path of raw ? dotSegmentTricks(from, to) : pathTricks(from, to)) {
            let answer: RawAnswer;
            try {
              answer = await get(haproxy.url, path, asCookie(users[user].token));
            } catch {
              continue; // a request line the client library or HAProxy will not carry at all
            }
            if (!answer.echo) {
              expect([path, answer.status]).not.toEqual([path, 200]);
              continue;
            }
            expect([path, answer.echo.app]).toEqual([path, user]);
            const read = normalizeRequestPath(answer.echo.path);
            expect([path, read.ok]).toEqual([path, true]);
            if (user === 'grafana') expect(read.ok && read.path.startsWith('/grafana/')).toBe(true);
            if (user === 'root') expect(read.ok && !read.path.toLowerCase().startsWith('/grafana')).toBe(true);
            expect([path, answer.echo.path]).not.toEqual([path, expect.stringMatching(/%2f|%5c|%25|;|%00|%c0|%e0|\\|#|\/\.\.?(\/|$)|%2e/i)]);
          }
        }
      });
    }

    it('judges the app HAProxy serves for an absolute request line: another Host is refused, the granted paths still work', async () => {
      for (const path of ['/grafana/x', '/wiki/x']) {
        const before = hits();
        const refused = await rawGet(haproxy.url, `${haproxy.url}${path}`, { host: FORGED_HOST, ...asCookie(stranger.token) });
        expect([path, refused.status]).toEqual([path, 400]);
        expect(hits()).toBe(before);
        const user = path.startsWith('/grafana/') ? 'grafana' : 'root';
        const admitted = await rawGet(haproxy.url, `${haproxy.url}${path}`, { host: new URL(haproxy.url).host, ...asCookie(users[user].token) });
        expect(admitted.echo).toMatchObject({ app: user, user: users[user].email });
        expect((await rawGet(haproxy.url, `${haproxy.url}${path}`, { host: new URL(haproxy.url).host, ...asCookie(stranger.token) })).status).toBe(403);
      }
    });

    it("removes the portal's credentials before every app of the host", async () => {
      for (const [user, path] of [
        ['grafana', '/grafana/x'],
        ['root', '/wiki/x'],
      ] as const) {
        for (const { label, sent, kept } of cookieCases(users[user].token)) {
          const answer = await rawGet(haproxy.url, path, { cookie: sent });
          expect([label, answer.echo?.app, answer.echo?.cookie ?? '', answer.echo?.authorization]).toEqual([label, user, kept, null]);
        }
        const script = await rawGet(haproxy.url, path, { authorization: `Bearer ${users[user].token}` });
        expect(script.echo).toMatchObject({ app: user, authorization: null, cookie: null });
      }
    });

    it('answers ambiguous paths 400, reaching no app', async () => {
      const before = hits();
      const ambiguous = [
        '/grafana/..%2fwiki/data',
        '/wiki/..%5cgrafana/',
        '/grafana/..;/wiki',
        '/GRAFANA/x',
        '/grafana/%c0%ae%c0%ae/wiki',
        '/grafana/..%252fwiki',
      ];
      // Dot segments: HAProxy resolves them itself with normalize-uri; routing on the raw path, the portal refuses them.
      if (raw) ambiguous.push('/grafana/../wiki/data', '/wiki/%2e%2e/grafana/x', '/grafana/./x', '/grafana/.%2e/wiki', '/wiki/x/..');
      for (const path of ambiguous) {
        const answer = await rawGet(haproxy.url, path, asCookie(portal.admin.token!));
        expect([path, answer.status]).toEqual([path, 400]);
      }
      expect(hits()).toBe(before);
    });
  });
}

describe.runIf(Boolean(haproxyBinary))('HAProxy with the Lua action when the portal does not answer', () => {
  let echo: EchoApp;
  let haproxy: HAProxy;

  beforeAll(async () => {
    echo = await startEchoApp('wiki');
    const [port, nobody] = [await freePort(), await freePort()];
    haproxy = await startHAProxy(
      haproxyBinary!,
      port,
      documentedFrontend('tested-haproxy', { haproxy: port, portal: nobody, apps: [echo.port] }, 'wiki.example.com'),
    );
  });
  afterAll(async () => {
    await haproxy?.stop();
    await echo?.close();
  });

  it('answers 503 and never lets the request through to the app', async () => {
    for (const [transport, get] of Object.entries(transports)) {
      const answer = await get(haproxy.url, '/page', { cookie: 'accesstoken=whatever', accept: 'text/html' });
      expect([transport, answer.status]).toEqual([transport, 503]);
    }
    expect(echo.hits()).toBe(0);
  });
});
