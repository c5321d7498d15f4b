/**
 * Where a sign-in sends the browser (docs/product.md, Redirects): the portal, or the origin of an app
 * the signed-in user may use (admins every app, others live grants). A registered app the user may
 * not use answers exactly like an origin that is no app, so the redirect is no oracle of which
 * origins are apps (docs/security.md, Open redirects after login). Every way in is tried.
 */
import { DEFAULT_REDIRECT, type App } from '@tools-portal/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appOriginsOf } from '../src/services/apps/apps.js';
import { totpCode } from '../src/services/sign-in/totp.js';
import { addPasskey, call, forgedAssertion, json, signInOptions, validate } from './support/passkey-ceremony.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApp, unique, USER_PASSWORD, useTestPortal, type TestUser } from './support/support.js';

// Many sign-ins from one address, some of them refused on purpose.
const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000' });

const host = (prefix: string) => `${unique(prefix)}.example.com`;

/** Status, headers and body, with the random token, device id and cookie expiry replaced. */
async function answer(response: Response): Promise<Record<string, unknown>> {
  const random = (text: string) =>
    text
      .replace(/(accesstoken|portal_device)=[^;,\s]+/g, '$1=RANDOM')
      .replace(/"accesstoken":"[^"]+"/g, '"accesstoken":"RANDOM"')
      .replace(/expires=[^;]+GMT/gi, 'expires=WHEN');
  const headers = Object.fromEntries(
    [...response.headers]
      .filter(([name]) => !['date', 'keep-alive', 'connection', 'x-request-id'].includes(name))
      .map(([name, value]) => [name, random(value)]),
  );
  return { status: response.status, headers, body: random(await response.text()) };
}

const passwordLogin = (email: string, password: string, redirect?: string) =>
  call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: password, ...(redirect === undefined ? {} : { redirect }) } });

async function redirectOf(response: Response): Promise<string> {
  return (await json<{ redirect: string }>(response, 200)).redirect;
}

describe('the redirect after signing in', () => {
  let granted: App;
  let notGranted: App;
  let user: TestUser;
  const unregistered = `https://${host('nothing')}`;

  beforeAll(async () => {
    granted = await createApp(portal.admin, { url: `https://${host('granted')}/tool/` });
    notGranted = await createApp(portal.admin, { url: `https://${host('other')}/tool/` });
    user = await portal.createUser({ apps: [granted] });
  });

  it('sends a user to an app they may use, exactly as asked', async () => {
    const target = `${new URL(granted.url).origin}/reports/7?x=1#top`;
    expect(await redirectOf(await passwordLogin(user.email, user.password, target))).toBe(target);
    expect(await redirectOf(await passwordLogin(user.email, user.password, '/auth/#/userapps'))).toBe('/auth/#/userapps');
    expect(await redirectOf(await passwordLogin(user.email, user.password, `${portal.url}/auth/#/requests`))).toBe(`${portal.url}/auth/#/requests`);
    expect(await redirectOf(await passwordLogin(user.email, user.password))).toBe(DEFAULT_REDIRECT);
  });

  it('answers a registered app the user may not use exactly like an origin that is no app', async () => {
    const other = new URL(notGranted.url);
    for (const [registered, absent] of [
      [`${other.origin}/tool/page?x=1`, `${unregistered}/tool/page?x=1`],
      [other.origin, unregistered],
      [`${other.origin}/`, `${unregistered}/`],
    ]) {
      const toApp = await answer(await passwordLogin(user.email, user.password, registered));
      const toNothing = await answer(await passwordLogin(user.email, user.password, absent));
      expect([registered, toApp]).toEqual([registered, toNothing]);
      expect(toApp.status).toBe(200);
      expect(JSON.parse(toApp.body as string).redirect).toBe(DEFAULT_REDIRECT);
      expect(JSON.stringify(toApp)).not.toContain(other.host);
    }
  });

  it('does not count an expired grant', async () => {
    const app = await createApp(portal.admin, { url: `https://${host('expired')}/` });
    const { user: expired, email, password } = await portal.createUser();
    const now = Date.now();
    // Written past expiry directly: the API only takes expiries in the future.
    await portal.deps.db('user_apps').insert({ user_id: expired.id, app_id: app.id, expires_at: now - 1000 });
    expect(await redirectOf(await passwordLogin(email, password, `${app.url}x`))).toBe(DEFAULT_REDIRECT);
    // Whether or not the sweep has removed it yet: judged on the expiry itself.
    await portal.deps.db('user_apps').where({ user_id: expired.id, app_id: app.id }).delete();
    await portal.deps.db('user_apps').insert({ user_id: expired.id, app_id: app.id, expires_at: now + 60_000 });
    expect(await redirectOf(await passwordLogin(email, password, `${app.url}x`))).toBe(`${app.url}x`);
    expect(await appOriginsOf(portal.deps.db, expired, now + 60_000)).toEqual(new Set());
    expect(await appOriginsOf(portal.deps.db, expired, now + 59_999)).toEqual(new Set([new URL(app.url).origin]));
  });

  it('lets an admin go to any app', async () => {
    const target = `${new URL(notGranted.url).origin}/anywhere?y=2`;
    expect(await redirectOf(await passwordLogin(ADMIN_EMAIL, ADMIN_PASSWORD, target))).toBe(target);
    expect(await redirectOf(await passwordLogin(ADMIN_EMAIL, ADMIN_PASSWORD, `${granted.url}z`))).toBe(`${granted.url}z`);
    expect(await redirectOf(await passwordLogin(ADMIN_EMAIL, ADMIN_PASSWORD, `${unregistered}/`))).toBe(DEFAULT_REDIRECT);
  });

  it('follows other spellings only when they name the same origin as an allowed app', async () => {
    const mine = new URL(granted.url).host;
    const theirs = new URL(notGranted.url).host;
    const same: [string, string][] = [
      [`https://${mine.toUpperCase()}/a`, `https://${mine}/a`],
      [`https://${mine}:443/a`, `https://${mine}/a`],
      [`HTTPS://${mine}/a`, `https://${mine}/a`],
    ];
    for (const [spelled, followed] of same) expect(await redirectOf(await passwordLogin(user.email, user.password, spelled)), spelled).toBe(followed);
    const refused = [
      `https://${theirs.toUpperCase()}/a`,
      `https://${theirs}:443/a`,
      `https://${mine}./a`,
      `https://${mine}:444/a`,
      `http://${mine}/a`,
      `https://${mine}@evil.example/`,
      `https://${mine}:443@evil.example/`,
      `https://user@${mine}/`,
      `https://evil.example\\@${mine}/`,
      `https://${mine}\\@evil.example/`,
      `https:\\\\${mine}/`,
      `https:/\\${mine}/`,
      `/\\${mine}/`,
      `\\\\${mine}/`,
      `//${mine}/`,
      `//evil.example/`,
      `///evil.example/`,
      `https:${mine}/`,
      `https://${mine}%2f@evil.example/`,
      `https://${mine}%40evil.example/`,
      `https://evil.example/${mine}`,
      `https://${mine}.evil.example/`,
    ];
    for (const target of refused) {
      // Byte for byte the answer of an origin that is no app.
      const toTarget = await answer(await passwordLogin(user.email, user.password, target));
      const toNothing = await answer(await passwordLogin(user.email, user.password, `${unregistered}/`));
      expect([target, toTarget]).toEqual([target, toNothing]);
    }
  });

  it('holds for every way in: passkey, passkey or recovery code as second factor, registration, password reset', async () => {
    const mine = `${new URL(granted.url).origin}/p`;
    const theirs = `${new URL(notGranted.url).origin}/p`;

    // A passkey alone.
    const { authenticator } = await addPasskey(portal, user.token);
    expect(await redirectOf(await validate(portal, authenticator.assert(await signInOptions(portal)), undefined, mine))).toBe(mine);
    expect(await redirectOf(await validate(portal, authenticator.assert(await signInOptions(portal)), undefined, theirs))).toBe(DEFAULT_REDIRECT);
    // A refused passkey is refused whatever the target.
    expect((await validate(portal, forgedAssertion(portal, authenticator.id, await signInOptions(portal)), undefined, mine)).status).toBe(401);

    // A recovery code, and a passkey, as second factor.
    const twoFactor = await portal.createUser({ apps: [granted] });
    const enrolled = await json<{ secret: string }>(await call(portal, 'POST', '/user/me/totp', { token: twoFactor.token }), 200);
    const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(
      await call(portal, 'POST', '/user/me/totp/confirm', { token: twoFactor.token, body: { Code: totpCode(enrolled.secret, Date.now()) } }),
      200,
    );
    const second = await addPasskey(portal, twoFactor.token);
    const pending = async () => (await json<{ mfa: { token: string } }>(await passwordLogin(twoFactor.email, twoFactor.password, mine), 200)).mfa.token;
    const viaCode = async (code: string, redirect: string) =>
      redirectOf(await call(portal, 'POST', '/validatemfa', { body: { MfaToken: await pending(), Code: code, redirect } }));
    expect(await viaCode(recoveryCodes[0], mine)).toBe(mine);
    expect(await viaCode(recoveryCodes[1], theirs)).toBe(DEFAULT_REDIRECT);
    const viaPasskey = async (redirect: string) => {
      const token = await pending();
      return redirectOf(await validate(portal, second.authenticator.assert(await signInOptions(portal, token)), token, redirect));
    };
    expect(await viaPasskey(mine)).toBe(mine);
    expect(await viaPasskey(theirs)).toBe(DEFAULT_REDIRECT);

    // Registration from an invite: the invite's apps are the new user's.
    const client = await portal.admin.clients.create(unique('client'));
    const register = async (redirect: string) => {
      const invite = await portal.admin.invites.create({ email: `${unique('new')}@example.com`, clientid: client.id, apps: [granted.id] });
      return redirectOf(await call(portal, 'POST', '/register', { body: { Token: invite.token, Password: USER_PASSWORD, redirect } }));
    };
    expect(await register(mine)).toBe(mine);
    expect(await register(theirs)).toBe(DEFAULT_REDIRECT);

    // A password reset link signs in like a login.
    const resetting = await portal.createUser({ apps: [granted] });
    const reset = async (redirect: string) => {
      const link = await portal.admin.users.passwordReset(resetting.user.id);
      const token = decodeURIComponent(link.link.split('/').pop() ?? '');
      return redirectOf(await call(portal, 'POST', '/resetpassword', { body: { Token: token, Password: `${unique('new-password')}-Xy`, redirect } }));
    };
    expect(await reset(mine)).toBe(mine);
    expect(await reset(theirs)).toBe(DEFAULT_REDIRECT);
  });
});
