/**
 * The OpenID provider tells apps the truth about the sign-in (docs/oidc.md, "What apps learn of
 * the sign-in"): `auth_time` is when the user really signed in, `prompt=login` and `max_age` make
 * them confirm on the Confirm it's you screen through the one sign-in pipeline, `amr`/`acr` say
 * which factors were used, and `acr_values=mfa` steps a one-factor session up (or answers
 * `unmet_authentication_requirements` for a user without a second factor). Real portal, real
 * relying party (openid-client), on the database under test; time is set on the session's row.
 */
import type { App } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../src/services/support/secrets.js';
import { amrOf } from '../src/services/sign-in/sign-in.js';
import { totpCode } from '../src/services/sign-in/totp.js';
import { Browser, oidc, relyingParty, type RelyingParty } from './support/openid-rp.js';
import { addPasskey, json, signInOptions } from './support/passkey-ceremony.js';
import { enrol } from './support/second-factor-steps.js';
import { createApp, useTestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal();
const REDIRECT = 'http://127.0.0.1:9/callback';
const API = '/api/auth/v1';
const HOUR_MS = 60 * 60 * 1000;

interface Setup {
  app: App;
  rp: RelyingParty;
  user: TestUser;
  browser: Browser;
}

async function setup(): Promise<Setup> {
  const app = await createApp(portal.admin);
  const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT], public: false, id_token_signed_response_alg: 'RS256' });
  const user = await portal.createUser({ apps: [app] });
  const rp = await relyingParty(portal.url, app.name, created.client_secret, REDIRECT);
  const browser = new Browser(portal.url);
  browser.cookies.set('accesstoken', user.token);
  return { app, rp, user, browser };
}

const sessionOf = (token: string) =>
  portal.deps
    .db('sessions')
    .where({ token_hash: sha256(token) })
    .first('id', 'created_at', 'signed_in_at', 'amr');

/** Moves the session's sign-in into the past, as if the user had signed in `ms` ago. */
async function signedInAgo(token: string, ms: number): Promise<number> {
  const at = Date.now() - ms;
  await portal.deps
    .db('sessions')
    .where({ token_hash: sha256(token) })
    .update({ signed_in_at: at, created_at: at });
  return Math.floor(at / 1000);
}

/** A call of the portal's API from the signed-in browser (cookie and Origin, as the web portal sends). */
async function browserCall(browser: Browser, path: string, body: unknown): Promise<Response> {
  return browser.request(`${portal.url}${API}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(portal.url).origin },
    body: JSON.stringify(body),
  });
}

/** Starts an authorization request in the browser: where it lands, and what the callback must check. */
async function authorize(setup: Setup, extra: Record<string, string> = {}) {
  const start = await setup.rp.start(extra);
  const { url } = await setup.browser.navigate(start.url);
  return { url, start };
}

async function tokensAt(setup: Setup, url: string, start: { verifier?: string; state: string; nonce: string }) {
  expect(url.startsWith(REDIRECT), url).toBe(true);
  const tokens = await oidc.authorizationCodeGrant(setup.rp.config, new URL(url), {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
    expectedNonce: start.nonce,
  });
  return tokens.claims()!;
}

/** The interaction a Confirm it's you (or step-up) screen returns to, from the screen's location. */
function confirmTarget(url: string, screen: 'confirm' | 'stepup'): string {
  const prefix = `${portal.url}/auth/#/${screen}/`;
  expect(url.startsWith(prefix), url).toBe(true);
  const target = decodeURIComponent(url.slice(prefix.length));
  expect(target).toMatch(/^\/oidc\/interaction\/[A-Za-z0-9_-]+$/);
  return target;
}

describe('the OpenID provider tells the truth about the sign-in', () => {
  it('every ID token carries auth_time (the real sign-in time), amr and acr', async () => {
    const s = await setup();
    const signedIn = await signedInAgo(s.user.token, 2 * HOUR_MS);
    const { url, start } = await authorize(s);
    const claims = await tokensAt(s, url, start);
    expect(claims.auth_time).toBe(signedIn);
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.acr).toBe('pwd');
  });

  it('a new session remembers when and how the user signed in', async () => {
    const s = await setup();
    const row = await sessionOf(s.user.token);
    expect(Number(row.signed_in_at)).toBe(Number(row.created_at));
    expect(row.amr).toBe('pwd');
  });

  it("prompt=login sends a signed-in browser to Confirm it's you; the confirmation's time is auth_time", async () => {
    const s = await setup();
    const signedIn = await signedInAgo(s.user.token, HOUR_MS);
    const { url, start } = await authorize(s, { prompt: 'login' });
    const target = confirmTarget(url, 'confirm');
    // Not confirmed yet: the interaction sends the browser back to the screen.
    expect(confirmTarget((await s.browser.navigate(`${portal.url}${target}`)).url, 'confirm')).toBe(target);

    const before = Math.floor(Date.now() / 1000);
    const confirmed = await json<{ accesstoken: string; redirect: string }>(
      await browserCall(s.browser, '/validatepassword', { Email: s.user.email, Password: s.user.password, redirect: target, Confirm: true }),
      200,
    );
    // The same session, confirmed: no new token, the cookie stays.
    expect(confirmed.accesstoken).toBe(s.user.token);
    expect(s.browser.cookies.get('accesstoken')).toBe(s.user.token);
    const claims = await tokensAt(s, (await s.browser.navigate(`${portal.url}${target}`)).url, start);
    expect(claims.auth_time).toBeGreaterThanOrEqual(before);
    expect(claims.auth_time).toBeGreaterThan(signedIn);
    expect(claims.amr).toEqual(['pwd']);

    // Afterwards, without prompt, auth_time stays the confirmation's: the session's real sign-in.
    const again = await authorize(s);
    expect((await tokensAt(s, again.url, again.start)).auth_time).toBe(claims.auth_time);
    const events = await portal.admin.logs.page(1, 50);
    expect(events.some((entry) => entry.event === 'login with password (confirming the session)' && entry.actor === s.user.email)).toBe(true);
  });

  it("max_age: a sign-in older than it needs Confirm it's you, a recent one does not", async () => {
    const s = await setup();
    const signedIn = await signedInAgo(s.user.token, 10 * 60 * 1000);
    const recent = await authorize(s, { max_age: '3600' });
    expect((await tokensAt(s, recent.url, recent.start)).auth_time).toBe(signedIn);

    const old = await authorize(s, { max_age: '60' });
    const target = confirmTarget(old.url, 'confirm');
    await json(await browserCall(s.browser, '/validatepassword', { Email: s.user.email, Password: s.user.password, Confirm: true }), 200);
    const claims = await tokensAt(s, (await s.browser.navigate(`${portal.url}${target}`)).url, old.start);
    expect(Date.now() / 1000 - claims.auth_time!).toBeLessThan(60);

    // max_age=0: every request needs a confirmation, and one made for it is enough.
    await signedInAgo(s.user.token, 5000);
    const zero = await authorize(s, { max_age: '0' });
    const again = confirmTarget(zero.url, 'confirm');
    await json(await browserCall(s.browser, '/validatepassword', { Email: s.user.email, Password: s.user.password, Confirm: true }), 200);
    const fresh = await tokensAt(s, (await s.browser.navigate(`${portal.url}${again}`)).url, zero.start);
    expect(fresh.auth_time).toBeGreaterThanOrEqual(claims.auth_time!);
  });

  it('a confirmation by a user with a second factor takes both, and the ID token says mfa', async () => {
    const s = await setup();
    const { secret } = await enrol(portal, s.user.token);
    await signedInAgo(s.user.token, HOUR_MS);
    const { url, start } = await authorize(s, { prompt: 'login' });
    const target = confirmTarget(url, 'confirm');
    const { mfa } = await json<{ mfa: { token: string } }>(
      await browserCall(s.browser, '/validatepassword', { Email: s.user.email, Password: s.user.password, Confirm: true }),
      200,
    );
    // The password alone has not confirmed anything yet.
    expect(confirmTarget((await s.browser.navigate(`${portal.url}${target}`)).url, 'confirm')).toBe(target);
    const done = await json<{ accesstoken: string }>(
      await browserCall(s.browser, '/validatemfa', { MfaToken: mfa.token, Code: totpCode(secret, Date.now() + 30_000) }),
      200,
    );
    expect(done.accesstoken).toBe(s.user.token);
    const claims = await tokensAt(s, (await s.browser.navigate(`${portal.url}${target}`)).url, start);
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(claims.acr).toBe('mfa');
  });

  it('a confirmation with a passkey (user verified) counts as two factors', async () => {
    const s = await setup();
    const { authenticator } = await addPasskey(portal, s.user.token);
    await signedInAgo(s.user.token, HOUR_MS);
    const { url, start } = await authorize(s, { prompt: 'login' });
    const target = confirmTarget(url, 'confirm');
    const options = await signInOptions(portal);
    const response = authenticator.assert(options, { userVerified: true });
    await json(await browserCall(s.browser, '/validatepasskey', { response, Confirm: true }), 200);
    const claims = await tokensAt(s, (await s.browser.navigate(`${portal.url}${target}`)).url, start);
    expect(claims.acr).toBe('mfa');
    expect(claims.amr).toContain('mfa');
    expect(['hwk', 'swk'].some((key) => (claims.amr as string[]).includes(key))).toBe(true);
  });

  it('only the signed-in user can confirm: another email is refused (400 naming Email), no session is 401', async () => {
    const s = await setup();
    const other = await portal.createUser();
    const wrong = await browserCall(s.browser, '/validatepassword', { Email: other.email, Password: other.password, Confirm: true });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: { details?: { field?: string } } }).error.details?.field).toBe('Email');
    const anonymous = await browserCall(new Browser(portal.url), '/validatepassword', { Email: s.user.email, Password: s.user.password, Confirm: true });
    expect(anonymous.status).toBe(401);
    const bad = await browserCall(s.browser, '/validatepassword', { Email: s.user.email, Password: s.user.password, Confirm: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('acr_values=mfa: a one-factor session of a user with a second factor steps up on the portal', async () => {
    const s = await setup();
    // Signed in with the password, then enrolled: the session is still one factor.
    const { secret } = await enrol(portal, s.user.token);
    const { url, start } = await authorize(s, { acr_values: 'mfa' });
    const target = confirmTarget(url, 'stepup');
    const { mfa } = await json<{ mfa: { token: string } }>(
      await browserCall(s.browser, '/validatepassword', { Email: s.user.email, Password: s.user.password, Confirm: true }),
      200,
    );
    await json(await browserCall(s.browser, '/validatemfa', { MfaToken: mfa.token, Code: totpCode(secret, Date.now() + 30_000) }), 200);
    const claims = await tokensAt(s, (await s.browser.navigate(`${portal.url}${target}`)).url, start);
    expect(claims.acr).toBe('mfa');
    expect((await sessionOf(s.user.token)).amr).toBe('pwd otp mfa');
    // A two-factor session needs no step-up.
    const again = await authorize(s, { acr_values: 'mfa' });
    expect((await tokensAt(s, again.url, again.start)).acr).toBe('mfa');
  });

  it('acr_values=mfa: the step-up may take the second factor alone, keeping the first (POST /stepup)', async () => {
    const s = await setup();
    const { secret } = await enrol(portal, s.user.token);
    const { url, start } = await authorize(s, { acr_values: 'mfa' });
    const target = confirmTarget(url, 'stepup');
    const { mfa } = await json<{ mfa: { token: string; methods: string[] } }>(await browserCall(s.browser, '/stepup', {}), 200);
    expect(mfa.methods).toContain('totp');
    const done = await json<{ accesstoken: string }>(
      await browserCall(s.browser, '/validatemfa', { MfaToken: mfa.token, Code: totpCode(secret, Date.now() + 30_000), redirect: target }),
      200,
    );
    expect(done.accesstoken).toBe(s.user.token);
    const claims = await tokensAt(s, (await s.browser.navigate(`${portal.url}${target}`)).url, start);
    expect(claims.acr).toBe('mfa');
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    const events = await portal.admin.logs.page(1, 50);
    expect(
      events.some((entry) => entry.event === 'step-up to two factors with an authenticator code (confirming the session)' && entry.actor === s.user.email),
    ).toBe(true);
    // A Google session keeps `fed` as its first factor.
    expect(amrOf('step-up', { previousAmr: ['fed'], secondFactor: 'passkey', key: 'hwk' })).toBe('fed hwk mfa');
  });

  it('POST /stepup: 409 for a user without a second factor', async () => {
    const s = await setup();
    const response = await browserCall(s.browser, '/stepup', {});
    expect(response.status).toBe(409);
  });

  it('acr_values=mfa for a user without a second factor: unmet_authentication_requirements at the redirect URI', async () => {
    const s = await setup();
    const { url } = await authorize(s, { acr_values: 'mfa' });
    expect(url.startsWith(REDIRECT), url).toBe(true);
    expect(new URL(url).searchParams.get('error')).toBe('unmet_authentication_requirements');
    // Without a screen to show, the answer is login_required.
    const none = await authorize(s, { acr_values: 'mfa', prompt: 'none' });
    expect(new URL(none.url).searchParams.get('error')).toBe('login_required');
    // A request that accepts one factor too is answered with it.
    const either = await authorize(s, { acr_values: 'mfa pwd' });
    expect((await tokensAt(s, either.url, either.start)).acr).toBe('pwd');
  });
});
