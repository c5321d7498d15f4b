/**
 * A single-page app signing in through the portal's OpenID provider (docs/oidc.md, "Single-page
 * apps"; issue 25 item 6), in real Chromium with a browser OpenID library (oidc-client-ts): a tiny
 * app served from a second loopback origin of its own, registered as a public client with that
 * origin's redirect URI. It signs in (code + PKCE), reads userinfo, refreshes, revokes and signs
 * out, all from the browser, which only works with the CORS the provider grants that origin. A
 * page of another origin gets no CORS for that client, and a confidential client gets none on the
 * token endpoint, not even from its own redirect URI's origin; the provider refuses those requests
 * before acting on them (the refresh token and the code still work afterwards).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { App } from '@tools-portal/core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser as CookieBrowser, oidc, relyingParty, signInThrough } from './support/openid-rp.js';
import { CHROMIUM_OPTIONS, chromiumAvailableFor } from './support/chromium.js';
import { createApp, refuses, useTestPortal, type TestUser } from './support/support.js';

const chromiumAvailable = chromiumAvailableFor('openid-spa.test.ts');

// The library's own browser build (a global `oidc`), next to its package.json (its exports name no file of it).
const LIBRARY = fs.readFileSync(
  path.join(path.dirname(createRequire(import.meta.url).resolve('oidc-client-ts/package.json')), 'dist/browser/oidc-client-ts.min.js'),
  'utf8',
);

/**
 * The app's own script: a UserManager of oidc-client-ts for the portal, the callback pages handled
 * on load, and a few calls for the test to make. Its outcome is written to `#status`.
 */
function appScript(authority: string, clientId: string, origin: string): string {
  return `
const mgr = new oidc.UserManager({
  authority: ${JSON.stringify(authority)},
  client_id: ${JSON.stringify(clientId)},
  redirect_uri: ${JSON.stringify(`${origin}/callback`)},
  post_logout_redirect_uri: ${JSON.stringify(`${origin}/signed-out`)},
  response_type: 'code',
  scope: 'openid email profile offline_access',
  loadUserInfo: true,
  automaticSilentRenew: false,
  // The revocation answer is an empty 200 (RFC 7009: the body is ignored), which oidc-client-ts
  // accepts only with its Content-Type named (docs/oidc.md, "Single-page apps").
  revokeTokenAdditionalContentTypes: ['text/plain'],
  userStore: new oidc.WebStorageStateStore({ store: window.localStorage }),
});
const status = (text) => { document.getElementById('status').textContent = text; };
window.spa = {
  mgr,
  async userinfo() {
    const user = await mgr.getUser();
    const discovery = await (await fetch(${JSON.stringify(`${authority}/.well-known/openid-configuration`)})).json();
    const answer = await fetch(discovery.userinfo_endpoint, { headers: { authorization: 'Bearer ' + user.access_token } });
    return { status: answer.status, body: await answer.json() };
  },
};
if (location.pathname === '/callback') {
  mgr.signinRedirectCallback().then((user) => status('signed in ' + user.profile.sub), (error) => status('error ' + error.message));
} else if (location.pathname === '/signed-out') {
  mgr.signoutRedirectCallback().then(() => status('signed out'), (error) => status('error ' + error.message));
} else {
  status('ready');
}
`;
}

const PAGE =
  '<!doctype html><meta charset="utf-8"><title>SPA</title><p id="status">loading</p><script src="/oidc-client-ts.js"></script><script src="/app.js"></script>';

interface Site {
  origin: string;
  close(): Promise<void>;
}

/** A loopback origin of its own serving the app: its page at every path, the library and its script. */
async function startSite(script: () => string): Promise<Site> {
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/oidc-client-ts.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(LIBRARY);
    else if (path === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(script());
    else if (path === '/favicon.ico') response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const portal = useTestPortal();

describe.skipIf(!chromiumAvailable)('a single-page app with oidc-client-ts in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let spaSite: Site;
  let otherSite: Site;
  let spa: { app: App; clientId: string };
  let user: TestUser;

  beforeAll(async () => {
    let clientId = '';
    spaSite = await startSite(() => appScript(portal.url, clientId, spaSite.origin));
    otherSite = await startSite(() => appScript(portal.url, clientId, otherSite.origin));
    const app = await createApp(portal.admin);
    await portal.admin.apps.oidc.enable(app.id, {
      redirect_uris: [`${spaSite.origin}/callback`],
      post_logout_redirect_uris: [`${spaSite.origin}/signed-out`],
      public: true,
      id_token_signed_response_alg: 'RS256',
    });
    clientId = app.name;
    spa = { app, clientId };
    user = await portal.createUser({ apps: [app] });
    browser = await chromium.launch(CHROMIUM_OPTIONS);
    context = await browser.newContext();
    // The browser is signed in to the portal (its session cookie), as after the portal's login screen.
    await context.addCookies([{ name: 'accesstoken', value: user.token, url: portal.url, httpOnly: true, sameSite: 'Lax' }]);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await spaSite?.close();
    await otherSite?.close();
  });

  const statusOf = (page: Page) => page.locator('#status').textContent();
  const waitForStatus = async (page: Page, pattern: RegExp) => {
    await page.waitForFunction((source) => new RegExp(source).test(document.getElementById('status')?.textContent ?? ''), pattern.source, { timeout: 15_000 });
    return statusOf(page);
  };

  /** A fetch made by a page of `page`'s origin: its status, or the error a CORS refusal gives. */
  const fetchFrom = (page: Page, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) =>
    page.evaluate(
      async ({ url, init }) => {
        try {
          const answer = await fetch(url, init);
          return { status: answer.status, body: await answer.text() };
        } catch (error) {
          return { error: String(error) };
        }
      },
      { url, init },
    );

  it('signs in with code + PKCE, reads userinfo, refreshes, revokes and signs out, all from its own origin', async () => {
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${spaSite.origin}/`);
    expect(await waitForStatus(page, /^ready$/)).toBe('ready');

    // Sign in: to the portal and back to /callback, where the code is exchanged from the browser.
    await page.evaluate(() => {
      void (window as unknown as { spa: { mgr: { signinRedirect(): Promise<void> } } }).spa.mgr.signinRedirect();
    });
    await page.waitForURL((url) => url.href.startsWith(`${spaSite.origin}/callback?`), { timeout: 15_000 });
    expect(await waitForStatus(page, /^(signed in|error)/)).toBe(`signed in ${user.user.id}`);
    expect(page.url().startsWith(`${spaSite.origin}/callback`)).toBe(true);
    const signedIn = await page.evaluate(async () => {
      const got = await (window as unknown as { spa: { mgr: { getUser(): Promise<Record<string, unknown> | null> } } }).spa.mgr.getUser();
      return got && { access_token: got.access_token, refresh_token: got.refresh_token, profile: got.profile, scope: got.scope };
    });
    expect(signedIn!.refresh_token).toBeTruthy();
    expect(signedIn!.profile).toMatchObject({ sub: String(user.user.id), email: user.email });
    // The authorization request carried an S256 code challenge (oidc-client-ts' PKCE; the portal requires it of public clients).
    const authorization = new URL(requested.find((href) => href.startsWith(`${portal.url}/oidc/auth?`))!);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    // userinfo read from the browser (the library read it too: loadUserInfo).
    const info = await page.evaluate(() =>
      (window as unknown as { spa: { userinfo(): Promise<{ status: number; body: Record<string, unknown> }> } }).spa.userinfo(),
    );
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ sub: String(user.user.id), email: user.email });

    // Refresh with the refresh token, from the browser: new tokens, the old refresh token spent.
    const refreshed = await page.evaluate(async () => {
      const got = await (window as unknown as { spa: { mgr: { signinSilent(): Promise<Record<string, unknown> | null> } } }).spa.mgr.signinSilent();
      return got && { access_token: got.access_token, refresh_token: got.refresh_token };
    });
    expect(refreshed!.access_token).toBeTruthy();
    expect(refreshed!.access_token).not.toBe(signedIn!.access_token);
    expect(refreshed!.refresh_token).not.toBe(signedIn!.refresh_token);
    expect((await page.evaluate(() => (window as unknown as { spa: { userinfo(): Promise<{ status: number }> } }).spa.userinfo())).status).toBe(200);

    // Revoke both tokens at the revocation endpoint, from the browser.
    await page.evaluate(() => (window as unknown as { spa: { mgr: { revokeTokens(): Promise<void> } } }).spa.mgr.revokeTokens());
    expect((await portal.fetch('/oidc/userinfo', { headers: { authorization: `Bearer ${refreshed!.access_token}` } })).status).toBe(401);
    const refreshAgain = await portal.fetch('/oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: String(refreshed!.refresh_token), client_id: spa.clientId }).toString(),
    });
    expect(((await refreshAgain.json()) as { error: string }).error).toBe('invalid_grant');

    // Sign out (RP-initiated logout): the portal's Sign out page, then back to the app.
    await page.evaluate(() => {
      void (window as unknown as { spa: { mgr: { signoutRedirect(): Promise<void> } } }).spa.mgr.signoutRedirect();
    });
    await page.waitForURL((url) => url.href.startsWith(`${portal.url}/oidc/logout`), { timeout: 15_000 });
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(`${spaSite.origin}/signed-out`), { timeout: 15_000 });
    expect(await waitForStatus(page, /^(signed out|error)/)).toBe('signed out');
    expect(page.url().startsWith(`${spaSite.origin}/signed-out`)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { spa: { mgr: { getUser(): Promise<unknown> } } }).spa.mgr.getUser())).toBeNull();
    // The portal session ended with it.
    expect(await refuses(user.api.users.me())).toBe(true);
    await page.close();
  });

  it('gives a page of another origin no CORS for that client: the provider refuses before acting', async () => {
    // A fresh sign-in for tokens, over HTTP (a browser with the user's portal session).
    const fresh = await portal.createUser({ apps: [spa.app] });
    const rp = await relyingParty(portal.url, spa.clientId, undefined, `${spaSite.origin}/callback`, 'none');
    const tokens = await signInThrough(rp, portal.url, fresh.token, { scope: 'openid email offline_access' });

    const other = await context.newPage();
    await other.goto(`${otherSite.origin}/`);
    const own = await context.newPage();
    await own.goto(`${spaSite.origin}/`);
    const userinfo = { headers: { authorization: `Bearer ${tokens.access_token}` } };
    expect(await fetchFrom(other, `${portal.url}/oidc/userinfo`, userinfo)).toEqual({ error: expect.stringMatching(/TypeError: Failed to fetch/) });
    expect((await fetchFrom(own, `${portal.url}/oidc/userinfo`, userinfo)).status).toBe(200);

    const refresh = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: spa.clientId }).toString(),
    };
    expect(await fetchFrom(other, `${portal.url}/oidc/token`, refresh)).toEqual({ error: expect.stringMatching(/TypeError: Failed to fetch/) });
    const revoke = { ...refresh, body: new URLSearchParams({ token: tokens.refresh_token!, client_id: spa.clientId }).toString() };
    expect(await fetchFrom(other, `${portal.url}/oidc/revoke`, revoke)).toEqual({ error: expect.stringMatching(/TypeError: Failed to fetch/) });
    // Neither was acted on: the refresh token still works, from the app's own origin.
    const fromOwn = await fetchFrom(own, `${portal.url}/oidc/token`, refresh);
    expect(fromOwn.status, fromOwn.body).toBe(200);
    expect(JSON.parse(fromOwn.body!)).toHaveProperty('access_token');
    await other.close();
    await own.close();
  });

  it('gives a confidential client no CORS on the token endpoint, even from its redirect URI origin', async () => {
    const app = await createApp(portal.admin);
    const redirect = `${otherSite.origin}/callback`;
    const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: [redirect], public: false, id_token_signed_response_alg: 'RS256' });
    const confidentialUser = await portal.createUser({ apps: [app] });
    const rp = await relyingParty(portal.url, app.name, created.client_secret, redirect, 'post');
    const start = await rp.start({}, { pkce: false });
    const cookies = new CookieBrowser(portal.url);
    cookies.cookies.set('accesstoken', confidentialUser.token);
    const { url } = await cookies.navigate(start.url);
    const code = new URL(url).searchParams.get('code')!;

    const page = await context.newPage();
    await page.goto(`${otherSite.origin}/`);
    const exchange = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        client_id: app.name,
        client_secret: created.client_secret!,
      }).toString(),
    };
    expect(await fetchFrom(page, `${portal.url}/oidc/token`, exchange)).toEqual({ error: expect.stringMatching(/TypeError: Failed to fetch/) });
    await page.close();
    // The code was not spent: the app's server redeems it (no Origin, no CORS).
    const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), { expectedState: start.state, expectedNonce: start.nonce });
    expect(tokens.access_token).toBeTruthy();
  });
});
