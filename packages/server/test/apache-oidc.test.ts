/**
 * A real third-party relying party: Apache httpd with mod_auth_openidc, configured with the block
 * of docs/oidc.md, in front of a small app. A granted user reaches the app through the portal's
 * login screen; a user without the grant never does.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedApacheBlock, hasApacheWithOidc, startApache, type Apache } from './proxies/apache.js';
import { Browser } from './support/openid-rp.js';
import { createApp, freePort, useTestPortal, type TestUser } from './support/support.js';

const DOC = fileURLToPath(new URL('../../../docs/oidc.md', import.meta.url));
// What a browser sends for a top-level navigation: mod_auth_openidc answers anything else (fetch's
// own `sec-fetch-mode: cors`, XHR) with 401 instead of a redirect to the provider, hence node:http.
const NAVIGATION = { accept: 'text/html,application/xhtml+xml', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
const available = hasApacheWithOidc('apache-oidc.test.ts') || process.env.CI === 'true';

describe.runIf(available)('mod_auth_openidc in front of an app, signing in through the portal', () => {
  const portal = useTestPortal();
  let apache: Apache;
  let app: http.Server;
  const seen: Array<Record<string, string | string[] | undefined>> = [];
  let granted: TestUser;
  let ungranted: TestUser;

  beforeAll(async () => {
    app = http.createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${request.headers['oidc_claim_email'] ?? 'nobody'}`);
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const appPort = (app.address() as AddressInfo).port;
    const port = await freePort();
    const apacheUrl = `http://127.0.0.1:${port}`;

    const wiki = await createApp(portal.admin, { url: `${apacheUrl}/` });
    const client = await portal.admin.apps.oidc.enable(wiki.id, { redirect_uris: [`${apacheUrl}/oauth2callback`] });
    granted = await portal.createUser({ apps: [wiki] });
    ungranted = await portal.createUser();

    const block = documentedApacheBlock(DOC, 'apache-oidc', [
      'https://tools.example.com',
      'OIDCClientID wiki',
      'CLIENT_SECRET',
      'https://wiki.example.com/oauth2callback',
      'A_LONG_RANDOM_PASSPHRASE',
    ])
      .replace('https://tools.example.com', portal.url)
      .replace('OIDCClientID wiki', `OIDCClientID ${wiki.name}`)
      .replace('CLIENT_SECRET', client.client_secret!)
      .replace('https://wiki.example.com/oauth2callback', `${apacheUrl}/oauth2callback`)
      .replace('A_LONG_RANDOM_PASSPHRASE', 'test-passphrase-that-is-long-enough');
    apache = await startApache(port, `${block}\nProxyPass /oauth2callback !\nProxyPass / http://127.0.0.1:${appPort}/\n`);
  });

  afterAll(async () => {
    await apache?.stop();
    await new Promise((resolve) => app?.close(resolve));
  });

  /** Follows redirects across Apache and the portal like a browser; stops at the portal's login screen. */
  async function visit(browser: Browser, url: string, stopAt = (_url: string) => false): Promise<{ url: string; response: Response | undefined }> {
    let current = url;
    for (let hop = 0; hop < 15; hop++) {
      const response = await browser.navigationRequest(current, NAVIGATION);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
      current = new URL(location, current).href;
      if (current.includes('/auth/#/login')) return { url: current, response };
      if (stopAt(current)) return { url: current, response: undefined };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  async function rawGet(url: URL, cookie: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(Number(url.port), '127.0.0.1', () =>
        socket.write(
          `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/html\r\nSec-Fetch-Mode: navigate\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
        ),
      );
      socket.setTimeout(10_000, () => socket.destroy(new Error('timeout')));
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
  }

  async function loginOnScreen(browser: Browser, user: TestUser, loginScreen: string): Promise<string> {
    const target = decodeURIComponent(new URL(loginScreen).hash.replace(/^#\/login\//, ''));
    const answer = await browser.request(`${portal.url}/api/auth/v1/validatepassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: portal.url },
      body: JSON.stringify({ Email: user.email, Password: user.password, redirect: target }),
    });
    expect(answer.status).toBe(200);
    return new URL(((await answer.json()) as { redirect: string }).redirect, portal.url).href;
  }

  it('lets a granted user reach the app through the portal login screen', async () => {
    const browser = new Browser(portal.url);
    const first = await visit(browser, `${apache.url}/page`);
    expect(first.url).toContain(`${portal.url}/auth/#/login/`);
    const next = await loginOnScreen(browser, granted, first.url);
    const { response } = await visit(browser, next);
    if (!response) throw new Error('no answer');
    // mod_auth_openidc lands on the original URL after the callback.
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(`hello ${granted.email}`);
    expect(seen.at(-1)?.['oidc_claim_email']).toBe(granted.email);
    // A second visit needs no portal round trip: mod_auth_openidc's own session.
    const again = await browser.navigationRequest(`${apache.url}/other`, NAVIGATION);
    expect(again.status).toBe(200);
  });

  it('keeps a user without the grant out of the app', async () => {
    const before = seen.length;
    const browser = new Browser(portal.url);
    const first = await visit(browser, `${apache.url}/page`);
    const next = await loginOnScreen(browser, ungranted, first.url);
    // The portal sends the browser back to the app's callback with access_denied...
    const { url } = await visit(browser, next, (where) => where.startsWith(`${apache.url}/oauth2callback`));
    const callback = new URL(url);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.has('code')).toBe(false);
    // ...where mod_auth_openidc shows an error page of its own (its answer to an error response is
    // not well-formed HTTP in this version, hence read raw) and the app behind it is never reached.
    const raw = await rawGet(callback, browser.cookieHeader());
    expect(raw).toMatch(/Error/);
    expect(raw).not.toContain('hello');
    const again = await browser.navigationRequest(`${apache.url}/page`, NAVIGATION);
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toContain(`${portal.url}/oidc/auth`);
    expect(seen.length).toBe(before);
  });
});
