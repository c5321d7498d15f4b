/**
 * Signing in from a terminal through the device grant (docs/oidc.md, Device grant): the device asks,
 * a signed-in user allows or denies on the verification page's API, the device polls as RFC 8628
 * says, and what it gets is a portal session named after it that works on the REST API and ends
 * like any session.
 */
import { createHash } from 'node:crypto';
import { TOOLSCTL_CLIENT_ID } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { enrol } from './support/second-factor-steps.js';
import { movePollsBack, pollDevice, refreshDevice, signedInDevice as signedInDeviceOf, startDevice } from './support/device-flow.js';
import { becomesTrue, CACHE_BOUND_MS, createApp, unique, useTestPortal, useTwoPortals, type TestUser } from './support/support.js';

const portal = useTestPortal();

/** A code one character off `code` (a typo). */
function typo(code: string): string {
  const last = code.at(-1)!;
  return `${code.slice(0, -1)}${last === 'B' ? 'C' : 'B'}`;
}

/** Allows a new device request as `user` and answers its tokens. */
const signedInDevice = (user: TestUser, host?: string) => signedInDeviceOf(portal.url, user.api, host);

async function me(token: string): Promise<number> {
  return (await portal.fetch('/api/auth/v1/user/me', { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('the device authorization request', () => {
  it('is in discovery, and answers the portal page, the code and the interval', async () => {
    const discovery = (await (await portal.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    expect(discovery.device_authorization_endpoint).toBe(`${portal.url}/oidc/device/auth`);
    expect(discovery.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:device_code');
    const device = await startDevice(portal.url);
    expect(device.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(device.verification_uri).toBe(`${portal.url}/auth/#/device`);
    expect(device.verification_uri_complete).toBe(`${portal.url}/auth/#/device/${device.user_code}`);
    expect(device.interval).toBe(5);
    expect(device.expires_in).toBe(600);
  });

  it('refuses a host name with control characters or too long, and an unknown client', async () => {
    for (const host of ['a\u0001b', 'x'.repeat(101)]) {
      const response = await portal.fetch('/oidc/device/auth', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: TOOLSCTL_CLIENT_ID, scope: 'openid', host }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error_description: string }).error_description).toMatch(/host/);
    }
    await expect(startDevice(portal.url, { clientId: 'no-such-app' })).rejects.toThrow(/401|400/);
  });

  it("sends a browser at the provider's own page to the portal's", async () => {
    const response = await portal.fetch('/oidc/device?user_code=BCDF-GHJK', { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${portal.url}/auth/#/device/BCDF-GHJK`);
    expect((await portal.fetch('/oidc/device', { method: 'POST', redirect: 'manual' })).status).toBe(404);
  });
});

describe('allowing a device', () => {
  it('shows which device asks, then gives it a session named after it that works on the REST API', async () => {
    const user = await portal.createUser();
    const device = await startDevice(portal.url, { host: 'laptop-7' });
    expect((await pollDevice(portal.url, device.device_code)).body.error).toBe('authorization_pending');
    const request = await user.api.device.lookup(device.user_code.toLowerCase().replace('-', ''));
    expect(request).toMatchObject({ user_code: device.user_code, client_id: 'toolsctl', name: 'toolsctl on laptop-7', host: 'laptop-7', address: '127.0.0.1' });
    expect(Date.now() - Date.parse(request.requestedTimestamp)).toBeLessThan(60_000);
    await user.api.device.approve(device.user_code);
    await movePollsBack(portal.deps.db, 5100);
    const answer = await pollDevice(portal.url, device.device_code);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.refresh_token).toBeTruthy();
    const cli = portal.client(answer.body.access_token);
    expect((await cli.users.me()).email).toBe(user.email);
    const sessions = await user.api.account.sessions.list();
    expect(sessions.find((session) => session.name === 'toolsctl on laptop-7')).toBeTruthy();
    // The code is used up: neither the page nor the device can use it again.
    await expect(user.api.device.lookup(device.user_code)).rejects.toMatchObject({ code: 'conflict' });
    expect((await pollDevice(portal.url, device.device_code)).body.error).toBe('invalid_grant');
  });

  it("passes forward auth as the user's session does", async () => {
    const app = await createApp(portal.admin);
    const user = await portal.createUser({ apps: [app] });
    const { access } = await signedInDevice(user);
    const verify = (name: string) => portal.fetch(`/api/auth/v1/verify?app=${name}`, { headers: { authorization: `Bearer ${access}` } });
    const allowed = await verify(app.name);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('remote-email')).toBe(user.email);
    expect((await verify((await createApp(portal.admin)).name)).status).toBe(403);
  });

  it('rotates the refresh token; the access token of a refresh works too', async () => {
    const user = await portal.createUser();
    const { refresh } = await signedInDevice(user);
    const first = await refreshDevice(portal.url, refresh);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.refresh_token).not.toBe(refresh);
    expect(await me(first.body.access_token!)).toBe(200);
    expect((await refreshDevice(portal.url, refresh)).body.error).toBe('invalid_grant');
  });

  it('keeps no access or refresh token the database would give away, only their hashes', async () => {
    const user = await portal.createUser();
    const { access, refresh } = await signedInDevice(user);
    const rows: { id: string; payload: string }[] = await portal.deps.db('oidc_payloads').select('id', 'payload');
    const stored = rows.map((row) => `${row.id} ${row.payload}`).join('\n');
    expect(stored).not.toContain(access);
    expect(stored).not.toContain(refresh);
    expect(rows.map((row) => row.id)).toContain(createHash('sha256').update(access).digest('hex'));
  });

  it('is one decision: allowing twice, or allowing a denied request, is refused', async () => {
    const user = await portal.createUser();
    const device = await startDevice(portal.url);
    const results = await Promise.allSettled([user.api.device.approve(device.user_code), user.api.device.approve(device.user_code)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect((await user.api.account.sessions.list()).filter((session) => session.name === 'toolsctl on build-box')).toHaveLength(1);
  });

  it('an app that enables the device grant may use it; one that does not may not', async () => {
    const app = await createApp(portal.admin);
    const settings = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: ['http://127.0.0.1:9/cb'], public: true, device: true });
    expect(settings.device).toBe(true);
    const user = await portal.createUser({ apps: [app] });
    const device = await startDevice(portal.url, { clientId: app.name, host: 'tv' });
    await user.api.device.approve(device.user_code);
    const answer = await pollDevice(portal.url, device.device_code, app.name);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // An app's token is no credential of the portal's API.
    expect(await me(answer.body.access_token!)).toBe(401);
    const other = await createApp(portal.admin);
    await portal.admin.apps.oidc.enable(other.id, { redirect_uris: ['http://127.0.0.1:9/cb'], public: true });
    await expect(startDevice(portal.url, { clientId: other.name })).rejects.toThrow(/unauthorized_client|400/);
    // A user without the grant of the app may not allow it.
    const stranger = await portal.createUser();
    const second = await startDevice(portal.url, { clientId: app.name });
    await expect(stranger.api.device.approve(second.user_code)).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('no app may take the name toolsctl as its client', async () => {
    const app = await createApp(portal.admin, { name: 'toolsctl' });
    await expect(portal.admin.apps.oidc.enable(app.id, { redirect_uris: ['http://127.0.0.1:9/cb'] })).rejects.toMatchObject({ code: 'conflict' });
    await portal.admin.apps.delete(app.id);
  });

  it('refuses API keys and bad input', async () => {
    const user = await portal.createUser();
    await expect(user.api.device.lookup('')).rejects.toMatchObject({ code: 'invalid_input', details: { field: 'user_code' } });
    const response = await portal.fetch('/api/auth/v1/device/lookup', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_code: 42 }),
    });
    expect(response.status).toBe(400);
  });
});

describe('the device is told', () => {
  it('access_denied when the user denies', async () => {
    const user = await portal.createUser();
    const device = await startDevice(portal.url);
    await user.api.device.deny(device.user_code);
    const answer = await pollDevice(portal.url, device.device_code);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('access_denied');
    await expect(user.api.device.approve(device.user_code)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('slow_down when it polls sooner than the interval', async () => {
    const device = await startDevice(portal.url);
    expect((await pollDevice(portal.url, device.device_code)).body.error).toBe('authorization_pending');
    await movePollsBack(portal.deps.db, 2600);
    const again = await pollDevice(portal.url, device.device_code);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('slow_down');
    // 5.2 s after the first poll but 2.6 s after the refused one, which counts too: a device that
    // keeps polling too fast keeps being told so.
    await movePollsBack(portal.deps.db, 2600);
    expect((await pollDevice(portal.url, device.device_code)).body.error).toBe('slow_down');
  });

  it('expired_token when the code has run out', async () => {
    const device = await startDevice(portal.url);
    // The clock moved past the code's end: its expiry, as the provider stored it, is in the past.
    const db = portal.deps.db;
    const rows: { id: string; payload: string }[] = await db('oidc_payloads').where({ model: 'DeviceCode' }).select('id', 'payload');
    const row = rows.find((candidate) => (JSON.parse(candidate.payload) as { userCode: string }).userCode === device.user_code.replace('-', ''))!;
    const payload = JSON.parse(row.payload) as { exp: number };
    await db('oidc_payloads')
      .where({ model: 'DeviceCode', id: row.id })
      .update({ payload: JSON.stringify({ ...payload, exp: Math.floor(Date.now() / 1000) - 1 }) });
    const answer = await pollDevice(portal.url, device.device_code);
    expect(answer.body.error).toBe('expired_token');
    const user = await portal.createUser();
    await expect(user.api.device.lookup(device.user_code)).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/expired/) });
  });

  it('access_denied once its code was typed wrong five times', async () => {
    const user = await portal.createUser();
    const device = await startDevice(portal.url);
    for (let i = 0; i < 5; i += 1) await expect(user.api.device.lookup(typo(device.user_code))).rejects.toMatchObject({ code: 'not_found' });
    await expect(user.api.device.lookup(device.user_code)).rejects.toMatchObject({ code: 'conflict' });
    const answer = await pollDevice(portal.url, device.device_code);
    expect(answer.body.error).toBe('access_denied');
    expect(answer.body.error_description).toMatch(/typed wrong 5 times/);
  });

  it('after enough lookups, a user is refused for a while', async () => {
    const user = await portal.createUser();
    let refused: unknown;
    for (let i = 0; i < 31 && !refused; i += 1)
      refused = await user.api.device.lookup('ZZZZ-ZZZZ').catch((error: { code: string }) => (error.code === 'too_many_requests' ? error : undefined));
    expect(refused).toBeTruthy();
  });
});

describe("the device's access ends with its session", () => {
  it('on logout with its own token', async () => {
    const user = await portal.createUser();
    const { access, refresh } = await signedInDevice(user);
    await portal.client(access).auth.logout();
    expect(await me(access)).toBe(401);
    expect((await refreshDevice(portal.url, refresh)).body.error).toBe('invalid_grant');
  });

  it("when the session is ended from the user's sessions, or an admin ends them all", async () => {
    const user = await portal.createUser();
    const { access, refresh } = await signedInDevice(user, 'ci-runner');
    const session = (await user.api.account.sessions.list()).find((candidate) => candidate.name === 'toolsctl on ci-runner')!;
    await user.api.account.sessions.revoke(session.id);
    expect(await me(access)).toBe(401);
    expect((await refreshDevice(portal.url, refresh)).body.error).toBe('invalid_grant');
    const second = await signedInDevice(user);
    await portal.admin.users.endSessions(user.user.id);
    expect(await me(second.access)).toBe(401);
  });

  it("when an admin resets the user's second factors", async () => {
    const user = await portal.createUser();
    const { access, refresh } = await signedInDevice(user);
    await portal.admin.users.resetMfa(user.user.id);
    expect(await me(access)).toBe(401);
    expect((await refreshDevice(portal.url, refresh)).body.error).toBe('invalid_grant');
  });

  it('on a password reset', async () => {
    const user = await portal.createUser();
    const { access, refresh } = await signedInDevice(user);
    const { link } = await portal.admin.users.passwordReset(user.user.id);
    const token = /\/auth\/#\/reset\/([A-Za-z0-9_-]+)/.exec(link)![1];
    await portal.anonymous.auth.resetPassword({ Token: token, Password: `${unique('pw')}-long` });
    expect(await me(access)).toBe(401);
    expect((await refreshDevice(portal.url, refresh)).body.error).toBe('invalid_grant');
  });

  it('when the user is deleted', async () => {
    const user = await portal.createUser();
    const { access, refresh } = await signedInDevice(user);
    await portal.admin.users.delete(user.user.id);
    expect(await me(access)).toBe(401);
    expect((await refreshDevice(portal.url, refresh)).body.error).toBe('invalid_grant');
  });

  it('an admin session approving the device gives the device an admin session', async () => {
    const { access } = await signedInDevice({ api: portal.admin } as TestUser);
    expect((await portal.client(access).users.list()).length).toBeGreaterThan(0);
  });
});

describe('with MFA_REQUIRED=all', () => {
  const strict = useTestPortal({ MFA_REQUIRED: 'all' });

  it('a session restricted to enrolling a second factor cannot sign a device in', async () => {
    // The admin sets up an authenticator first (which lifts its own session's restriction).
    await enrol(strict, strict.admin.token!);
    const user = await strict.createUser();
    expect((await user.api.users.me()).mfaEnrollmentRequired).toBe(true);
    const device = await startDevice(strict.url);
    await expect(user.api.device.approve(device.user_code)).rejects.toMatchObject({ code: 'mfa_enrollment_required' });
    expect((await pollDevice(strict.url, device.device_code)).body.error).toBe('authorization_pending');
  });
});

describe('on two instances', () => {
  const { a, b } = useTwoPortals({}, { samePublicUrl: true });

  it('asks on A, is allowed on B, polls on A and works on B; a too-quick poll on B after one on A slows down', async () => {
    const user = await b.createUser();
    const device = await startDevice(a.url, { host: 'two' });
    expect((await pollDevice(a.url, device.device_code)).body.error).toBe('authorization_pending');
    expect((await pollDevice(b.url, device.device_code)).body.error).toBe('slow_down');
    await user.api.device.approve(device.user_code);
    await movePollsBack(a.deps.db, 5100);
    const answer = await pollDevice(a.url, device.device_code);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await b.client(answer.body.access_token).users.me()).email).toBe(user.email);
    const refreshed = await refreshDevice(b.url, answer.body.refresh_token!);
    expect(refreshed.status).toBe(200);

    // Logging out on A ends it on B within the bound.
    await a.client(refreshed.body.access_token).auth.logout();
    const ended = async () =>
      (await fetch(`${b.url}/api/auth/v1/user/me`, { headers: { authorization: `Bearer ${refreshed.body.access_token}` } })).status === 401;
    expect(await becomesTrue(ended, CACHE_BOUND_MS)).toBe(true);
    expect((await refreshDevice(b.url, refreshed.body.refresh_token!)).body.error).toBe('invalid_grant');
  });
});
