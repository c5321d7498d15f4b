/**
 * The Account page's self-service (docs/api.md): turning the authenticator app off and making new
 * recovery codes, each proven by the password or a code, and `recoveryCodesLeft` on GET /user/me.
 * Codes are computed at a fixed clock (only Date is faked).
 */
import { generateApiKey } from '@tools-portal/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../src/services/sign-in/totp.js';
import { addPasskey, call, json } from './support/passkey-ceremony.js';
import { enrol, pendingSignIn, sendCode } from './support/second-factor-steps.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, USER_PASSWORD, useTestPortal, type TestPortal } from './support/support.js';

const T0 = Date.UTC(2026, 10, 23, 12, 0, 10); // 10 s into a 30-second step
const STEP_MS = 30_000;

interface Me {
  totp: boolean;
  mfa: boolean;
  recoveryCodesLeft: number;
}
const me = async (portal: TestPortal, token: string) => json<Me>(await call(portal, 'GET', '/user/me', { token }), 200);
const errorOf = async (response: Response) => {
  const body = (await response.json()) as { error: { code: string; message: string; details?: { field?: string } } };
  return { status: response.status, code: body.error.code, message: body.error.message, field: body.error.details?.field };
};
const events = async (portal: TestPortal, email: string) =>
  (await portal.deps.db('auth_log').where({ user: email }).orderBy('id').select('type', 'event')).map((row) => `${row.type}: ${row.event}`);

describe('account self-service of the authenticator app', () => {
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000', LOGIN_FAILURES_PER_EMAIL: '1000' });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('GET /user/me counts the unused recovery codes: 0 without an app, 10 after enrolling, 9 after one is used', async () => {
    const user = await portal.createUser();
    expect(await me(portal, user.token)).toMatchObject({ totp: false, recoveryCodesLeft: 0 });
    const { recoveryCodes } = await enrol(portal, user.token);
    expect(await me(portal, user.token)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    const pending = await pendingSignIn(portal, user.email, USER_PASSWORD);
    expect((await sendCode(portal, pending.token, recoveryCodes[0]!)).status).toBe(200);
    expect(await me(portal, user.token)).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it('turns the app off with the password: no factor left, the codes gone, logged', async () => {
    const user = await portal.createUser();
    const { recoveryCodes } = await enrol(portal, user.token);
    expect((await call(portal, 'DELETE', '/user/me/totp', { token: user.token, body: { Password: USER_PASSWORD } })).status).toBe(204);
    expect(await me(portal, user.token)).toMatchObject({ totp: false, mfa: false, recoveryCodesLeft: 0 });
    expect(await portal.deps.db('recovery_codes').where({ user_id: user.user.id }).count({ n: '*' }).first()).toMatchObject({ n: 0 });
    // A password sign-in is one step again; an old recovery code is nothing.
    const signIn = await json<{ accesstoken?: string }>(
      await call(portal, 'POST', '/validatepassword', { body: { Email: user.email, Password: USER_PASSWORD } }),
      200,
    );
    expect(signIn.accesstoken).toBeDefined();
    expect(recoveryCodes).toHaveLength(10);
    expect(await events(portal, user.email)).toContain('mfa.disable: turned off authenticator app (10 unused recovery codes removed)');
    // Off is off: again is a 409, not a 204.
    expect(await errorOf(await call(portal, 'DELETE', '/user/me/totp', { token: user.token, body: { Password: USER_PASSWORD } }))).toMatchObject({
      status: 409,
      message: 'the authenticator app is not set up',
    });
  });

  it('turns the app off with a code from it, or with a recovery code', async () => {
    const first = await portal.createUser();
    const { secret } = await enrol(portal, first.token);
    vi.setSystemTime(T0 + STEP_MS); // the enrolment's code was accepted once; the next step's is new
    const code = totpCode(secret, Date.now());
    expect((await call(portal, 'DELETE', '/user/me/totp', { token: first.token, body: { Code: code } })).status).toBe(204);
    expect(await me(portal, first.token)).toMatchObject({ totp: false });

    const second = await portal.createUser();
    const { recoveryCodes } = await enrol(portal, second.token);
    expect((await call(portal, 'DELETE', '/user/me/totp', { token: second.token, body: { Code: recoveryCodes[3] } })).status).toBe(204);
    expect(await me(portal, second.token)).toMatchObject({ totp: false });
  });

  it('refuses a wrong proof with a 400 naming the field, and the hint about the clock for a code', async () => {
    const user = await portal.createUser();
    const { secret } = await enrol(portal, user.token);
    const wrongCode = totpCode(secret, Date.now() + 10 * STEP_MS);
    for (const path of ['/user/me/totp', '/user/me/recoverycodes']) {
      const method = path === '/user/me/totp' ? 'DELETE' : 'POST';
      expect(await errorOf(await call(portal, method, path, { token: user.token, body: { Password: 'not the password' } }))).toMatchObject({
        status: 400,
        field: 'Password',
        message: 'Password: the password is wrong',
      });
      expect(await errorOf(await call(portal, method, path, { token: user.token, body: { Code: wrongCode } }))).toMatchObject({
        status: 400,
        field: 'Code',
        message: 'Code: the code is not valid; check the clock of the device',
      });
    }
    expect(await me(portal, user.token)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    const logged = await events(portal, user.email);
    expect(logged).toContain('login.failure: turning the authenticator app off refused: wrong password');
    expect(logged).toContain('mfa.failure: new recovery codes refused: wrong code');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const user = await portal.createUser();
    await enrol(portal, user.token);
    const bad: [unknown, string][] = [
      [undefined, 'Password'],
      [{}, 'Password'],
      [{ Password: USER_PASSWORD, Code: '123456' }, 'Code'],
      [{ Password: 42 }, 'Password'],
      [{ Code: '' }, 'Code'],
      [{ Code: 'x'.repeat(65) }, 'Code'],
      [[], 'body'],
    ];
    for (const [body, field] of bad) {
      for (const [method, path] of [
        ['DELETE', '/user/me/totp'],
        ['POST', '/user/me/recoverycodes'],
      ] as const) {
        expect(await errorOf(await call(portal, method, path, { token: user.token, body })), `${method} ${path} ${JSON.stringify(body)}`).toMatchObject({
          status: 400,
          field,
        });
      }
    }
    // A body that is no JSON at all, on DELETE as on POST: 400, never 500.
    for (const method of ['DELETE', 'POST']) {
      const path = method === 'DELETE' ? '/user/me/totp' : '/user/me/recoverycodes';
      const response = await portal.fetch(`/api/auth/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: '{"Password": ',
      });
      expect(response.status, `${method} ${path}`).toBe(400);
    }
    expect(await me(portal, user.token)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
  });

  it('new recovery codes: the old ones die, the new ones work, logged', async () => {
    const user = await portal.createUser();
    const { recoveryCodes: old } = await enrol(portal, user.token);
    const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(
      await call(portal, 'POST', '/user/me/recoverycodes', { token: user.token, body: { Password: USER_PASSWORD } }),
      200,
    );
    expect(recoveryCodes).toHaveLength(10);
    expect(recoveryCodes.some((code) => old.includes(code))).toBe(false);
    expect(await me(portal, user.token)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    const pending = await pendingSignIn(portal, user.email, USER_PASSWORD);
    expect((await sendCode(portal, pending.token, old[0]!)).status).toBe(401);
    expect((await sendCode(portal, pending.token, recoveryCodes[0]!)).status).toBe(200);
    expect(await events(portal, user.email)).toContain('recovery.generate: made 10 new recovery codes (the old ones no longer work)');
  });

  it('new recovery codes with an old recovery code as the proof', async () => {
    const user = await portal.createUser();
    const { recoveryCodes: old } = await enrol(portal, user.token);
    const answer = await call(portal, 'POST', '/user/me/recoverycodes', { token: user.token, body: { Code: old[9] } });
    expect((await json<{ recoveryCodes: string[] }>(answer, 200)).recoveryCodes).toHaveLength(10);
  });

  it('refuses both calls without an authenticator app (409), to API keys (403) and to anonymous callers (401)', async () => {
    const user = await portal.createUser();
    expect(await errorOf(await call(portal, 'POST', '/user/me/recoverycodes', { token: user.token, body: { Password: USER_PASSWORD } }))).toMatchObject({
      status: 409,
    });
    expect(await errorOf(await call(portal, 'DELETE', '/user/me/totp', { token: user.token, body: { Password: USER_PASSWORD } }))).toMatchObject({
      status: 409,
    });
    await enrol(portal, user.token);
    const key = generateApiKey();
    await user.api.accessTokens.create(key);
    for (const [method, path] of [
      ['DELETE', '/user/me/totp'],
      ['POST', '/user/me/recoverycodes'],
    ] as const) {
      expect((await call(portal, method, path, { token: key, body: { Password: USER_PASSWORD } })).status).toBe(403);
      expect((await call(portal, method, path, { body: { Password: USER_PASSWORD } })).status).toBe(401);
    }
    expect(await me(portal, user.token)).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
  });

  it('two concurrent turn-offs: one 204, the other 409, one log entry', async () => {
    const user = await portal.createUser();
    await enrol(portal, user.token);
    const statuses = await Promise.all(
      [0, 1].map(async () => (await call(portal, 'DELETE', '/user/me/totp', { token: user.token, body: { Password: USER_PASSWORD } })).status),
    );
    expect(statuses.sort()).toEqual([204, 409]);
    expect((await events(portal, user.email)).filter((event) => event.startsWith('mfa.disable'))).toHaveLength(1);
  });
});

describe('turning the app off under MFA_REQUIRED', () => {
  const portal = useTestPortal({ MFA_REQUIRED: 'admins', LOGIN_FAILURES_PER_ADDRESS: '1000' });

  it("refuses to remove an admin's last second factor (409); with a passkey it may go", async () => {
    const login = await json<{ accesstoken: string }>(
      await call(portal, 'POST', '/validatepassword', { body: { Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD } }),
      200,
    );
    const token = login.accesstoken;
    await enrol(portal, token);
    expect(await errorOf(await call(portal, 'DELETE', '/user/me/totp', { token, body: { Password: ADMIN_PASSWORD } }))).toMatchObject({
      status: 409,
      message: 'your account must keep a second factor (MFA_REQUIRED): add a passkey before turning the authenticator app off',
    });
    await addPasskey(portal, token);
    expect((await call(portal, 'DELETE', '/user/me/totp', { token, body: { Password: ADMIN_PASSWORD } })).status).toBe(204);
    expect(await me(portal, token)).toMatchObject({ totp: false, mfa: true });
  });
});
