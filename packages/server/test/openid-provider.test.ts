/**
 * The portal as an OpenID Connect provider (docs/oidc.md), driven by openid-client as the relying
 * party against a real portal on the database under test: discovery, the code flow with every
 * branch of the contract, tokens checked against the JWKS, PKCE, client authentication, refresh
 * rotation, revocation by the portal (user deleted, grant removed, session ended), logout.
 */
import { createPublicKey, verify } from 'node:crypto';
import { OIDC_SCOPES, OIDC_SIGNING_ALGS, type App } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { testDialect } from './support/database.js';
import { Browser, oidc, relyingParty, type RelyingParty } from './support/openid-rp.js';
import { refuseEvents } from './support/refused-events.js';
import { becomesTrue, CACHE_BOUND_MS, createApp, failure, useTestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal();
const REDIRECT = 'http://127.0.0.1:9/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:9/signed-out';

function browserOf(token?: string): Browser {
  const browser = new Browser(portal.url);
  if (token) browser.cookies.set('accesstoken', token);
  return browser;
}

interface Setup {
  app: App;
  secret: string | undefined;
  rp: RelyingParty;
  user: TestUser;
}

async function setup(options: { public?: boolean; alg?: 'RS256' | 'ES256'; auth?: 'basic' | 'post'; grant?: boolean } = {}): Promise<Setup> {
  const app = await createApp(portal.admin);
  const created = await portal.admin.apps.oidc.enable(app.id, {
    redirect_uris: [REDIRECT],
    post_logout_redirect_uris: [AFTER_LOGOUT],
    public: options.public ?? false,
    id_token_signed_response_alg: options.alg ?? 'RS256',
  });
  const user = await portal.createUser({ apps: options.grant === false ? [] : [app] });
  const rp = await relyingParty(portal.url, app.name, created.client_secret, REDIRECT, options.public ? 'none' : (options.auth ?? 'basic'));
  return { app, secret: created.client_secret, rp, user };
}

/** Authorization request → code → tokens, in a browser signed in to the portal with `token`. */
async function signIn(rp: RelyingParty, token: string, extra: Record<string, string> = {}) {
  const start = await rp.start(extra);
  const { url } = await browserOf(token).navigate(start.url);
  expect(url.startsWith(REDIRECT), url).toBe(true);
  return oidc.authorizationCodeGrant(rp.config, new URL(url), { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
}

/** Verifies a JWT's signature against the provider's published JWKS; answers header and payload. */
async function verifyJwt(jwt: string): Promise<{ header: Record<string, string>; payload: Record<string, unknown> }> {
  const [headerText, payloadText, signature] = jwt.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(headerText, 'base64url').toString()) as Record<string, string>;
  const jwks = (await (await portal.fetch('/oidc/jwks')).json()) as { keys: Array<Record<string, string>> };
  const jwk = jwks.keys.find((key) => key.kid === header.kid);
  if (!jwk) throw new Error(`kid ${header.kid} is not published`);
  expect(jwk).not.toHaveProperty('d');
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const data = Buffer.from(`${headerText}.${payloadText}`);
  const ok =
    header.alg === 'RS256'
      ? verify('sha256', data, key, Buffer.from(signature, 'base64url'))
      : verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('bad signature');
  return { header, payload: JSON.parse(Buffer.from(payloadText, 'base64url').toString()) as Record<string, unknown> };
}

const errorOf = (call: Promise<unknown>) =>
  call.then(
    () => 'ok',
    (error: { error?: string; status?: number; cause?: Array<{ parameters?: { error?: string } }> }) =>
      error.error ?? error.cause?.[0]?.parameters?.error ?? `status ${error.status}`,
  );

const userinfoStatus = async (accessToken: string) => (await portal.fetch('/oidc/userinfo', { headers: { authorization: `Bearer ${accessToken}` } })).status;

describe('discovery', () => {
  it('is at {PUBLIC_URL}/.well-known/openid-configuration with the issuer PUBLIC_URL and endpoints below /oidc/', async () => {
    const response = await portal.fetch('/.well-known/openid-configuration');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(portal.url);
    for (const name of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'end_session_endpoint', 'revocation_endpoint']) {
      expect(String(doc[name]).startsWith(`${portal.url}/oidc/`), name).toBe(true);
    }
    expect(doc.response_types_supported).toEqual(['code']);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'groups', 'offline_access']));
    expect(doc.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']));
    expect(doc.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['RS256', 'ES256']));
    expect(doc).not.toHaveProperty('registration_endpoint');
    // The portal's own /auth/ is untouched.
    expect((await portal.fetch('/auth/')).status).not.toBe(404);
  });

  it("lists exactly core's scopes and signing algorithms, declared once (OIDC_SCOPES, OIDC_SIGNING_ALGS)", async () => {
    const doc = (await (await portal.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    expect(doc.scopes_supported).toEqual([...OIDC_SCOPES]);
    // oidc-provider lists the algorithms in an order of its own.
    expect([...(doc.id_token_signing_alg_values_supported as string[])].sort()).toEqual([...OIDC_SIGNING_ALGS].sort());
  });
});

describe('the code flow', () => {
  it('gives a granted user a code at once (no screen), and ID token and userinfo carry the claims, signed RS256', async () => {
    const { rp, user } = await setup();
    const tokens = await signIn(rp, user.token);
    const { header, payload } = await verifyJwt(tokens.id_token!);
    expect(header.alg).toBe('RS256');
    // The test user registered with a copied invite link: the mailbox is not proven (openid-email-verified.test.ts).
    expect(payload).toMatchObject({
      iss: portal.url,
      aud: rp.config.clientMetadata().client_id,
      sub: String(user.user.id),
      email: user.email,
      email_verified: false,
      groups: [user.user.client.name],
    });
    expect(payload.name).toBeTruthy();
    const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, String(user.user.id));
    expect(info).toMatchObject({ sub: String(user.user.id), email: user.email, email_verified: false, groups: [user.user.client.name] });
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('signs ES256 where the client asks, and accepts client_secret_post', async () => {
    const { rp, user } = await setup({ alg: 'ES256', auth: 'post' });
    const tokens = await signIn(rp, user.token);
    expect((await verifyJwt(tokens.id_token!)).header.alg).toBe('ES256');
  });

  it('writes one event-log row per sign-in to an app', async () => {
    const { app, rp, user } = await setup();
    await signIn(rp, user.token);
    await signIn(rp, user.token);
    const rows = (await portal.admin.logs.page(1, 100)).filter(
      (row) => row.event === `signed in to app ${app.name} (OpenID Connect)` && row.user === user.email,
    );
    expect(rows).toHaveLength(2);
  });

  it('admins may sign in to every client app without a grant', async () => {
    const { rp } = await setup();
    const tokens = await signIn(rp, portal.admin.token!);
    expect(tokens.claims()!.groups).toEqual(['Admin']);
  });

  it('sends a user without the grant back with access_denied, and logs it', async () => {
    const { app, rp, user } = await setup({ grant: false });
    const start = await rp.start();
    const { url } = await browserOf(user.token).navigate(start.url);
    const answer = new URL(url);
    expect(answer.origin + answer.pathname).toBe(REDIRECT);
    expect(answer.searchParams.get('error')).toBe('access_denied');
    expect(answer.searchParams.get('state')).toBe(start.state);
    expect(answer.searchParams.has('code')).toBe(false);
    const log = await portal.admin.logs.page(1, 20);
    expect(log.some((row) => row.user === user.email && row.event.includes(`may not use app ${app.name} (OpenID Connect)`))).toBe(true);
  });

  it('sends a browser without a portal session to the portal login screen, and back with a code after the login', async () => {
    const { rp, user } = await setup();
    const start = await rp.start();
    const browser = browserOf();
    const first = await browser.navigate(start.url);
    const login = new URL(first.url);
    expect(login.origin + login.pathname).toBe(`${portal.url}/auth/`);
    const target = decodeURIComponent(login.hash.replace(/^#\/login\//, ''));
    expect(target).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
    // The login screen posts the password; the answer sets the cookie and says where to go.
    const answer = await browser.request(`${portal.url}/api/auth/v1/validatepassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: portal.url },
      body: JSON.stringify({ Email: user.email, Password: user.password, redirect: target }),
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { redirect: string }).redirect).toBe(target);
    const { url } = await browser.navigate(`${portal.url}${target}`);
    expect(url.startsWith(REDIRECT)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    expect(tokens.claims()!.sub).toBe(String(user.user.id));
  });

  it('prompt=none: login_required without a portal session; a code with one, even the first time', async () => {
    const { rp, user } = await setup();
    const without = await rp.start({ prompt: 'none' });
    const none = new URL((await browserOf().navigate(without.url)).url);
    expect(none.searchParams.get('error')).toBe('login_required');
    const tokens = await signIn(rp, user.token, { prompt: 'none' });
    expect(tokens.claims()!.sub).toBe(String(user.user.id));
  });

  // prompt=login: openid-provider-sign-in.test.ts (the user confirms it is them).
  it('prompt=consent is satisfied by the portal session without a screen', async () => {
    const { rp, user } = await setup();
    expect((await signIn(rp, user.token, { prompt: 'consent' })).claims()!.sub).toBe(String(user.user.id));
  });

  it('never follows a redirect URI that is not registered exactly', async () => {
    const { app, rp, user } = await setup();
    for (const uri of [`${REDIRECT}/`, `${REDIRECT}?x=1`, 'http://127.0.0.1:9/CALLBACK', 'https://evil.example/callback', `${REDIRECT}#frag`]) {
      const url = oidc.buildAuthorizationUrl(rp.config, { redirect_uri: uri, scope: 'openid', state: 's' }).href;
      const { response } = await browserOf(user.token).navigate(url);
      expect(response.status, uri).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).not.toContain('<script');
    }
    // Omitting redirect_uri is refused too, though only one is registered.
    const url = `${portal.url}/oidc/auth?client_id=${encodeURIComponent(app.name)}&response_type=code&scope=openid`;
    expect((await browserOf(user.token).navigate(url)).response.status).toBe(400);
  });
});

describe.skipIf(testDialect() !== 'sqlite')('reads on a SQLite file', () => {
  it("userinfo and a code exchange read the provider's state on SQLite's own connection, none through Knex's pool", async () => {
    const { rp, user } = await setup();
    const start = await rp.start();
    const { url } = await browserOf(user.token).navigate(start.url);
    const queries: Array<{ sql: string; direct?: boolean }> = [];
    const onQuery = (query: { sql: string; direct?: boolean }) => queries.push(query);
    portal.deps.db.on('query', onQuery);
    try {
      const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
        expectedNonce: start.nonce,
      });
      const reads = queries.filter((query) => /^select/i.test(query.sql));
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.filter((query) => !query.direct)).toEqual([]);
      queries.length = 0;
      expect(await userinfoStatus(tokens.access_token)).toBe(200);
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.filter((query) => !query.direct)).toEqual([]);
    } finally {
      portal.deps.db.removeListener('query', onQuery);
    }
  });
});

describe("the provider's writes", () => {
  it("store and consume its state through prepared statements, not Knex's query runner", async () => {
    const { rp, user } = await setup();
    const queries: Array<{ sql: string; direct?: boolean }> = [];
    const onQuery = (query: { sql: string; direct?: boolean }) => queries.push(query);
    portal.deps.db.on('query', onQuery);
    try {
      const start = await rp.start();
      const { url } = await browserOf(user.token).navigate(start.url);
      const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
        expectedNonce: start.nonce,
      });
      await oidc.tokenRevocation(rp.config, tokens.access_token);
    } finally {
      portal.deps.db.removeListener('query', onQuery);
    }
    // Every upsert, consumption and deletion of a row of the provider's (the minutely sweep of
    // expired rows aside).
    const writes = queries.filter((query) => /^(insert|update|delete)\b[^;]*\boidc_payloads\b/i.test(query.sql) && !/expires_at["`]? </.test(query.sql));
    const kinds = new Set(writes.map((query) => query.sql.split(' ')[0]!.toLowerCase()));
    expect([...kinds].sort()).toEqual(['delete', 'insert', 'update']);
    expect(writes.filter((query) => !query.direct)).toEqual([]);
  });
});

describe('PKCE', () => {
  it('is optional for confidential clients and checked when sent', async () => {
    const { rp, user } = await setup();
    const start = await rp.start({}, { pkce: false });
    const { url } = await browserOf(user.token).navigate(start.url);
    const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), { expectedState: start.state, expectedNonce: start.nonce });
    expect(tokens.access_token).toBeTruthy();

    const withPkce = await rp.start();
    const second = await browserOf(user.token).navigate(withPkce.url);
    const wrong = oidc.authorizationCodeGrant(rp.config, new URL(second.url), {
      pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
      expectedState: withPkce.state,
    });
    expect(await errorOf(wrong)).toBe('invalid_grant');
  });

  it('is required from public clients, S256 only; they authenticate with none and get no secret', async () => {
    const { rp, secret, user } = await setup({ public: true });
    expect(secret).toBeUndefined();
    const without = await rp.start({}, { pkce: false });
    const refused = new URL((await browserOf(user.token).navigate(without.url)).url);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    const plain = await rp.start({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, { pkce: false });
    expect(new URL((await browserOf(user.token).navigate(plain.url)).url).searchParams.get('error')).toBe('invalid_request');

    const start = await rp.start();
    const { url } = await browserOf(user.token).navigate(start.url);
    const missing = oidc.authorizationCodeGrant(rp.config, new URL(url), { expectedState: start.state });
    expect(await errorOf(missing)).toBe('invalid_grant');
    const again = await rp.start();
    const next = await browserOf(user.token).navigate(again.url);
    const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(next.url), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
      expectedNonce: again.nonce,
    });
    expect(tokens.claims()!.sub).toBe(String(user.user.id));
  });
});

describe('client authentication', () => {
  it('refuses a wrong secret, and the old secret after a new one is issued; invalid_client after the settings are deleted', async () => {
    const { app, rp, user, secret } = await setup();
    const wrongRp = await relyingParty(portal.url, app.name, `${secret}x`, REDIRECT);
    const start = await wrongRp.start();
    const { url } = await browserOf(user.token).navigate(start.url);
    expect(await errorOf(oidc.authorizationCodeGrant(wrongRp.config, new URL(url), { pkceCodeVerifier: start.verifier, expectedState: start.state }))).toBe(
      'invalid_client',
    );

    const tokens = await signIn(rp, user.token, { scope: 'openid offline_access' });
    const replaced = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    expect(replaced.client_secret).not.toBe(secret);
    expect(await errorOf(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!))).toBe('invalid_client');
    const newRp = await relyingParty(portal.url, app.name, replaced.client_secret, REDIRECT);
    const fresh = await signIn(newRp, user.token, { scope: 'openid offline_access' });

    await portal.admin.apps.oidc.disable(app.id);
    expect(await errorOf(oidc.refreshTokenGrant(newRp.config, fresh.refresh_token!))).toBe('invalid_client');
    const after = await newRp.start();
    expect((await browserOf(user.token).navigate(after.url)).response.status).toBe(400);
  });

  it('uses each code once, also when two requests race for it', async () => {
    const { rp, user } = await setup();
    const start = await rp.start();
    const { url } = await browserOf(user.token).navigate(start.url);
    const checks = { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce };
    const results = await Promise.all([1, 2, 3].map(() => errorOf(oidc.authorizationCodeGrant(rp.config, new URL(url), checks))));
    expect(results.filter((result) => result === 'ok')).toHaveLength(1);
    expect(results.filter((result) => result === 'invalid_grant')).toHaveLength(2);
  });
});

describe('refresh tokens and revocation', () => {
  it('issues a refresh token for offline_access without a consent prompt, rotating on use', async () => {
    const { rp, user } = await setup();
    const tokens = await signIn(rp, user.token, { scope: 'openid email offline_access' });
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope?.split(' ')).toContain('offline_access');
    const refreshed = await oidc.refreshTokenGrant(rp.config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(await userinfoStatus(refreshed.access_token)).toBe(200);
    // The used one is spent.
    expect(await errorOf(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!))).toBe('invalid_grant');
  });

  async function offlineTokens() {
    const context = await setup();
    const tokens = await signIn(context.rp, context.user.token, { scope: 'openid offline_access' });
    return { ...context, tokens };
  }

  const refused = async (rp: RelyingParty, tokens: { refresh_token?: string; access_token: string }) =>
    (await userinfoStatus(tokens.access_token)) === 401 && (await errorOf(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!))) === 'invalid_grant';

  it('stops when the user is deleted', async () => {
    const { rp, user, tokens } = await offlineTokens();
    await portal.admin.users.delete(user.user.id);
    expect(await becomesTrue(() => refused(rp, tokens), CACHE_BOUND_MS)).toBe(true);
  });

  it('stops when the grant is removed', async () => {
    const { app, rp, user, tokens } = await offlineTokens();
    await portal.admin.users.revoke(user.user.id, app.id);
    expect(await becomesTrue(() => refused(rp, tokens), CACHE_BOUND_MS)).toBe(true);
  });

  it('stops when the grant expires (issue 16): no code and no refresh after expiry, within the cache bound', async () => {
    const { app, rp, user } = await setup({ grant: false });
    const expiresAt = Date.now() + 3000;
    await portal.admin.users.grant(user.user.id, app.id, new Date(expiresAt).toISOString());
    const tokens = await signIn(rp, user.token, { scope: 'openid offline_access' });
    expect(tokens.refresh_token).toBeTruthy();
    const deniedSignIn = async () => {
      const start = await rp.start();
      const { url } = await browserOf(user.token).navigate(start.url);
      return new URL(url).searchParams.get('error') === 'access_denied';
    };
    expect(await becomesTrue(deniedSignIn, expiresAt - Date.now() + CACHE_BOUND_MS + 500, 250)).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
    expect(await becomesTrue(() => refused(rp, tokens), CACHE_BOUND_MS)).toBe(true);
  });

  it('stops when the portal session that issued them ends (logout)', async () => {
    const { rp, user, tokens } = await offlineTokens();
    await user.api.auth.logout();
    expect(await becomesTrue(() => refused(rp, tokens), CACHE_BOUND_MS)).toBe(true);
  });

  it("stops when an admin ends the user's sessions", async () => {
    const { rp, user, tokens } = await offlineTokens();
    expect((await portal.admin.request('DELETE', `/user/${user.user.id}/session`)) ?? null).toBeNull();
    expect(await becomesTrue(() => refused(rp, tokens), CACHE_BOUND_MS)).toBe(true);
  });

  it('revokes an access token or refresh token at the revocation endpoint', async () => {
    const { rp, tokens } = await offlineTokens();
    await oidc.tokenRevocation(rp.config, tokens.access_token);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);
    await oidc.tokenRevocation(rp.config, tokens.refresh_token!);
    expect(await errorOf(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!))).toBe('invalid_grant');
  });
});

/** An app sends the browser to the provider's logout: answers the Sign out page and its text. */
async function openLogoutPage(browser: Browser, rp: RelyingParty, idToken: string) {
  const endUrl = oidc.buildEndSessionUrl(rp.config, { id_token_hint: idToken, post_logout_redirect_uri: AFTER_LOGOUT, state: 'bye' }).href;
  const { response } = await browser.navigate(endUrl);
  return { response, html: await response.text() };
}

/** The Sign out page's button: posts its form. */
function confirmLogout(browser: Browser, html: string) {
  const action = /action="([^"]+)"/.exec(html)![1]!;
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
  return browser.request(new URL(action.replace(/&amp;/g, '&'), portal.url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
}

describe('sign-out', () => {
  it('RP-initiated logout ends the portal session, on a page within the CSP, then goes to the registered URI', async () => {
    const { rp, user } = await setup();
    const tokens = await signIn(rp, user.token);
    const browser = browserOf(user.token);
    const { response, html } = await openLogoutPage(browser, rp, tokens.id_token!);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:9/);
    expect(html).not.toMatch(/<script|<style|style=/);
    const confirm = await confirmLogout(browser, html);
    expect(confirm.status).toBe(303);
    const back = new URL(confirm.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(AFTER_LOGOUT);
    expect(back.searchParams.get('state')).toBe('bye');
    expect(browser.cookies.has('accesstoken')).toBe(false);
    expect(await failure(user.api.users.me())).toMatchObject({ code: 'unauthenticated' });
  });

  it('RP-initiated logout ends the portal session and writes its event in one transaction: neither without the other', async () => {
    const { rp, user } = await setup();
    const tokens = await signIn(rp, user.token);
    const browser = browserOf(user.token);
    const { html } = await openLogoutPage(browser, rp, tokens.id_token!);
    const allowEvents = await refuseEvents(portal.deps.db, 'oidc.logout');
    try {
      expect((await confirmLogout(browser, html)).status).toBe(500);
    } finally {
      await allowEvents();
    }
    expect(await user.api.users.me()).toMatchObject({ email: user.email });
  });

  it('portal logout ends the provider sign-in: the same browser with prompt=none gets login_required', async () => {
    const { rp, user } = await setup();
    const browser = browserOf(user.token);
    const first = await rp.start({ prompt: 'none' });
    expect(new URL((await browser.navigate(first.url)).url).searchParams.has('code')).toBe(true);
    expect([...browser.cookies.keys()].some((name) => name.startsWith('oidc_session'))).toBe(true);
    await user.api.auth.logout();
    const second = await rp.start({ prompt: 'none' });
    expect(new URL((await browser.navigate(second.url)).url).searchParams.get('error')).toBe('login_required');
  });
});

describe('admin API', () => {
  it('answers the settings without a secret, 404 when off; validates redirect URIs; renaming a client app is 409', async () => {
    const app = await createApp(portal.admin);
    expect(await failure(portal.admin.apps.oidc.get(app.id))).toMatchObject({ code: 'not_found' });
    const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: ['https://wiki.example.com/cb', 'http://localhost:3000/cb'] });
    expect(created.client_secret).toMatch(/^[\w-]{40,}$/);
    expect(created.discovery_url).toBe(`${portal.url}/.well-known/openid-configuration`);
    const settings = await portal.admin.apps.oidc.get(app.id);
    expect(settings).toMatchObject({
      client_id: app.name,
      redirect_uris: ['https://wiki.example.com/cb', 'http://localhost:3000/cb'],
      public: false,
      id_token_signed_response_alg: 'RS256',
    });
    expect(JSON.stringify(settings)).not.toContain(created.client_secret!);

    for (const bad of [
      'http://wiki.example.com/cb',
      'https://wiki.example.com/cb#x',
      '/relative',
      'javascript:alert(1)',
      'https://user:pw@wiki.example.com/',
      'https://wiki.example.com/a b',
    ]) {
      expect(await failure(portal.admin.apps.oidc.enable(app.id, { redirect_uris: [bad] })), bad).toMatchObject({
        code: 'invalid_input',
        field: 'redirect_uris.0',
      });
    }
    expect(await failure(portal.admin.apps.oidc.enable(app.id, { redirect_uris: [] }))).toMatchObject({ code: 'invalid_input' });
    expect(
      await failure(portal.admin.request('POST', `/app/${app.id}/oidc`, { redirect_uris: ['https://a.example/'], id_token_signed_response_alg: 'HS256' })),
    ).toMatchObject({ code: 'invalid_input' });

    const rename = await failure(portal.admin.apps.update({ id: app.id, name: `${app.name}-renamed`, url: app.url }));
    expect(rename.code).toBe('conflict');
    await portal.admin.apps.update({ id: app.id, name: app.name, url: app.url, description: 'same name is fine' });

    await portal.admin.apps.oidc.disable(app.id);
    expect(await failure(portal.admin.apps.oidc.get(app.id))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.apps.oidc.disable(app.id))).toMatchObject({ code: 'not_found' });
    await portal.admin.apps.update({ id: app.id, name: `${app.name}-renamed`, url: app.url });
    expect(await failure(portal.admin.apps.oidc.get(999_999))).toMatchObject({ code: 'not_found' });
  });

  it('rotates the signing keys: new tokens use a new key, the old one stays published', async () => {
    const { rp, user } = await setup();
    const before = await verifyJwt((await signIn(rp, user.token)).id_token!);
    const rotation = await portal.admin.oidc.rotateKeys();
    expect(rotation.signing).toHaveLength(2);
    expect(rotation.signing).not.toContain(before.header.kid);
    expect(rotation.published).toContain(before.header.kid);
    const jwks = (await (await portal.fetch('/oidc/jwks')).json()) as { keys: Array<{ kid: string }> };
    expect(jwks.keys.map((key) => key.kid)).toEqual(expect.arrayContaining([...rotation.signing, before.header.kid]));
    const after = await verifyJwt((await signIn(rp, user.token)).id_token!);
    expect(rotation.signing).toContain(after.header.kid);
  });

  it('keeps the signing keys sealed in the database', async () => {
    const rows = await portal.deps.db('oidc_signing_keys').select('sealed_jwk');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.sealed_jwk).toMatch(/^v1\./);
      expect(row.sealed_jwk).not.toContain('"d"');
    }
    const secrets = await portal.deps.db('oidc_clients').select('secret_hash');
    for (const row of secrets) if (row.secret_hash) expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('hostile input', () => {
  it('never answers 500 at the provider endpoints', async () => {
    const { app, user } = await setup();
    const weird = ['', '\u0000', 'x'.repeat(5000), '../../etc/passwd', '%00', '😀', "' OR 1=1 --", '<script>'];
    const statuses: number[] = [];
    const call = (path: string, init: RequestInit = {}) => portal.fetch(path, { redirect: 'manual', ...init });
    for (const value of weird) {
      const q = encodeURIComponent(value);
      statuses.push((await call(`/oidc/userinfo`, { headers: { authorization: `Bearer ${value.replace(/[^\x21-\x7e]/g, 'A') || 'A'}` } })).status);
      statuses.push((await call(`/oidc/auth?client_id=${q}&response_type=code&scope=openid&redirect_uri=${q}`)).status);
      statuses.push(
        (
          await call(
            `/oidc/auth?client_id=${encodeURIComponent(app.name)}&response_type=${q}&scope=${q}&redirect_uri=${encodeURIComponent(REDIRECT)}&code_challenge=${q}`,
            { headers: { cookie: `accesstoken=${user.token}` } },
          )
        ).status,
      );
      for (const body of [
        `grant_type=authorization_code&code=${q}&client_id=${q}&client_secret=${q}`,
        `grant_type=refresh_token&refresh_token=${q}&client_id=${encodeURIComponent(app.name)}&client_secret=${q}`,
        `grant_type=${q}`,
      ]) {
        statuses.push((await call('/oidc/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })).status);
      }
      statuses.push(
        (await call(`/oidc/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${q}&client_id=${q}` }))
          .status,
      );
      statuses.push((await call(`/oidc/interaction/${q}`)).status);
      statuses.push((await call(`/oidc/logout?id_token_hint=${q}&post_logout_redirect_uri=${q}`)).status);
      statuses.push((await call(`/oidc/auth/${q}`)).status);
    }
    statuses.push((await call('/oidc/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":' })).status);
    statuses.push(
      (await call('/oidc/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a='.padEnd(2_000_000, 'x') }))
        .status,
    );
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});

describe('several sign-ins at once', () => {
  it('gives each of several authorizations in one portal session a code that works, in any order', async () => {
    const { rp, user } = await setup();
    // Browsers without the provider's cookie (several tabs, or a cleared cookie): one provider
    // session each, all under the same portal session.
    const starts = await Promise.all([1, 2, 3].map(() => rp.start()));
    const urls = [];
    for (const start of starts) urls.push((await browserOf(user.token).navigate(start.url)).url);
    for (const index of [2, 0, 1]) {
      const start = starts[index]!;
      const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(urls[index]!), {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
        expectedNonce: start.nonce,
      });
      expect(tokens.claims()!.sub).toBe(String(user.user.id));
    }
  });
});
