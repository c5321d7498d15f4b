/**
 * Second factors (docs/security.md, docs/api.md): an authenticator app with recovery codes, the
 * pending sign-in it makes of a password login, sessions, password change, the admin's reset,
 * API-key refusal and MFA_REQUIRED. Codes are computed at a fixed clock (only Date is faked).
 */
import { generateApiKey } from '@tools-portal/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { totpCode, totpStep } from '../src/services/sign-in/totp.js';
import { testDialect } from './support/database.js';
import { refuseEvents } from './support/refused-events.js';
import { enrol } from './support/second-factor-steps.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, unique, USER_PASSWORD, useTestPortal, type TestPortal } from './support/support.js';

const API = '/api/auth/v1';
const T0 = Date.UTC(2026, 10, 23, 12, 0, 10); // 10 s into a 30-second step

describe('RFC 6238 test vectors (SHA-1)', () => {
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  it.each(vectors)('at %i s the code is %s (8 digits; 6 digits are its last six)', (seconds, code) => {
    expect(totpCode(secret, seconds * 1000, 8)).toBe(code);
    expect(totpCode(secret, seconds * 1000)).toBe(code.slice(2));
    expect(totpStep(secret, code.slice(2), { timestamp: seconds * 1000 })).toBe(Math.floor(seconds / 30));
    // One step of drift either way, not two.
    expect(totpStep(secret, code.slice(2), { timestamp: (seconds + 30) * 1000 })).toBe(Math.floor(seconds / 30));
    expect(totpStep(secret, code.slice(2), { timestamp: (seconds + 61) * 1000 })).toBeUndefined();
  });
});

function call(portal: TestPortal, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  return portal.fetch(`${API}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function passwordStep(portal: TestPortal, email: string, password = USER_PASSWORD): Promise<{ token: string; methods: string[] }> {
  const response = await call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: password } });
  expect(response.headers.get('set-cookie') ?? '').not.toContain('accesstoken=');
  const body = await json<{ mfa: { token: string; methods: string[] }; accesstoken?: string }>(response, 200);
  expect(body.accesstoken).toBeUndefined();
  return body.mfa;
}

const mfa = (portal: TestPortal, MfaToken: string, Code: string) => call(portal, 'POST', '/validatemfa', { body: { MfaToken, Code } });

const events = async (portal: TestPortal, email: string) =>
  (await portal.deps.db('auth_log').where({ user: email }).orderBy('id').select('event')).map((row) => row.event as string);

describe('second factors', () => {
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000' });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('enrols an authenticator app: a 160-bit secret sealed at rest, its URI, 10 recovery codes stored hashed', async () => {
    const { token, email, user } = await portal.createUser();
    const started = await json<{ secret: string; uri: string }>(await call(portal, 'POST', '/user/me/totp', { token }), 200);
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.uri).toMatch(new RegExp(`^otpauth://totp/Tools-Server:${encodeURIComponent(email)}\\?`));
    expect(started.uri).toContain('issuer=Tools-Server');
    expect(started.uri).toContain(`secret=${started.secret}`);
    const stored = await portal.deps.db('user_totp').where({ user_id: user.id }).first();
    expect(stored.secret_sealed).not.toContain(started.secret);
    // Not on before its code; a wrong code is refused.
    expect((await json<{ mfa: boolean }>(await call(portal, 'GET', '/user/me', { token }), 200)).mfa).toBe(false);
    expect((await call(portal, 'POST', '/user/me/totp/confirm', { token, body: { Code: '000000' } })).status).toBe(400);
    const confirmed = await json<{ recoveryCodes: string[] }>(
      await call(portal, 'POST', '/user/me/totp/confirm', { token, body: { Code: totpCode(started.secret, Date.now()) } }),
      200,
    );
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    const hashes = JSON.stringify(await portal.deps.db('recovery_codes').where({ user_id: user.id }).select('*'));
    for (const code of confirmed.recoveryCodes) expect(hashes).not.toContain(code);
    expect(await json(await call(portal, 'GET', '/user/me', { token }), 200)).toMatchObject({ mfa: true, totp: true, mfaEnrollmentRequired: false });
    expect((await call(portal, 'POST', '/user/me/totp', { token })).status).toBe(409);
    expect(await events(portal, email)).toContain('enabled authenticator app (10 recovery codes)');
  });

  it('makes a password login pending; an authenticator code finishes it once; a replayed code is refused', async () => {
    const { token, email } = await portal.createUser();
    const { secret } = await enrol(portal, token);
    vi.setSystemTime(T0 + 30_000);
    const pending = await passwordStep(portal, email);
    expect(pending.methods).toEqual(['totp', 'recovery']);
    expect((await mfa(portal, pending.token, '123456')).status).toBe(401);
    const code = totpCode(secret, Date.now());
    const response = await mfa(portal, pending.token, code);
    expect(response.headers.get('set-cookie') ?? '').toContain('accesstoken=');
    const body = await json<{ accesstoken: string; redirect: string }>(response, 200);
    expect(body.redirect).toBe('/auth/#/applist/');
    expect((await json<{ email: string }>(await call(portal, 'GET', '/user/me', { token: body.accesstoken }), 200)).email).toBe(email);
    // Single use, and the same code is not accepted twice.
    expect((await mfa(portal, pending.token, code)).status).toBe(401);
    const again = await passwordStep(portal, email);
    expect((await mfa(portal, again.token, code)).status).toBe(401);
    vi.setSystemTime(T0 + 60_000);
    expect((await mfa(portal, again.token, totpCode(secret, Date.now()))).status).toBe(200);
    expect(await events(portal, email)).toContain('login with password and authenticator code');
  });

  it('accepts each recovery code once', async () => {
    const { token, email } = await portal.createUser();
    const { recoveryCodes } = await enrol(portal, token);
    const first = await passwordStep(portal, email);
    expect((await mfa(portal, first.token, recoveryCodes[3].toUpperCase())).status).toBe(200);
    const second = await passwordStep(portal, email);
    expect((await mfa(portal, second.token, recoveryCodes[3])).status).toBe(401);
    expect((await mfa(portal, second.token, recoveryCodes[4])).status).toBe(200);
    const log = await events(portal, email);
    expect(log.filter((event) => event === 'used a recovery code')).toHaveLength(2);
    expect(log).toContain('login with password and recovery code');
  });

  it('voids a pending sign-in after 5 wrong codes, which count toward the email limit', async () => {
    const { token, email } = await portal.createUser();
    const { secret } = await enrol(portal, token);
    vi.setSystemTime(T0 + 30_000);
    const pending = await passwordStep(portal, email);
    for (let wrong = 0; wrong < 5; wrong++) expect((await mfa(portal, pending.token, '000000')).status).toBe(401);
    expect((await mfa(portal, pending.token, totpCode(secret, Date.now()))).status).toBe(401);
    // The wrong codes counted toward the email's limit: the email is banned now.
    expect((await call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: USER_PASSWORD } })).status).toBe(429);
  });

  it('a pending sign-in expires after 5 minutes', async () => {
    const { token, email } = await portal.createUser();
    const { secret } = await enrol(portal, token);
    const pending = await passwordStep(portal, email);
    vi.setSystemTime(T0 + 5 * 60_000 + 1000);
    expect((await mfa(portal, pending.token, totpCode(secret, Date.now()))).status).toBe(401);
  });

  it("lists the caller's sessions and ends one, all others, never another user's", async () => {
    const owner = await portal.createUser();
    const other = await portal.login(owner.email, USER_PASSWORD);
    const third = await portal.login(owner.email, USER_PASSWORD);
    const list = await json<{ id: number; current: boolean; ip: string; userAgent: string; createdTimestamp: string; lastUsedTimestamp: string }[]>(
      await call(portal, 'GET', '/user/me/session', { token: owner.token }),
      200,
    );
    expect(list).toHaveLength(3);
    expect(list.filter((session) => session.current)).toHaveLength(1);
    expect(Object.keys(list[0]).sort()).toEqual(['createdTimestamp', 'current', 'id', 'ip', 'lastUsedTimestamp', 'name', 'userAgent']);
    const stranger = await portal.createUser();
    const strangerSessions = await json<{ id: number }[]>(await call(portal, 'GET', '/user/me/session', { token: stranger.token }), 200);
    expect((await call(portal, 'DELETE', `/user/me/session/${strangerSessions[0].id}`, { token: owner.token })).status).toBe(404);
    const otherId = list.find((session) => !session.current)!.id;
    expect((await call(portal, 'DELETE', `/user/me/session/${otherId}`, { token: owner.token })).status).toBe(204);
    expect((await json<unknown[]>(await call(portal, 'GET', '/user/me/session', { token: owner.token }), 200)).length).toBe(2);
    expect((await call(portal, 'DELETE', '/user/me/session', { token: owner.token })).status).toBe(204);
    expect((await call(portal, 'GET', '/user/me', { token: other })).status).toBe(401);
    expect((await call(portal, 'GET', '/user/me', { token: third })).status).toBe(401);
    expect((await call(portal, 'GET', '/user/me', { token: owner.token })).status).toBe(200);
    expect((await call(portal, 'GET', '/user/me', { token: stranger.token })).status).toBe(200);
  });

  it('changes the password: the current one must be right; other sessions end, this one stays', async () => {
    const user = await portal.createUser();
    const other = await portal.login(user.email, USER_PASSWORD);
    expect(
      (await call(portal, 'POST', '/user/me/password', { token: user.token, body: { Password: 'not-it', NewPassword: 'a-new-long-passphrase-9' } })).status,
    ).toBe(401);
    expect((await call(portal, 'POST', '/user/me/password', { token: user.token, body: { Password: USER_PASSWORD, NewPassword: 'short' } })).status).toBe(400);
    expect(
      (await call(portal, 'POST', '/user/me/password', { token: user.token, body: { Password: USER_PASSWORD, NewPassword: 'a-new-long-passphrase-9' } }))
        .status,
    ).toBe(204);
    expect((await call(portal, 'GET', '/user/me', { token: other })).status).toBe(401);
    expect((await call(portal, 'GET', '/user/me', { token: user.token })).status).toBe(200);
    await portal.login(user.email, 'a-new-long-passphrase-9');
    expect((await events(portal, user.email)).some((event) => event.startsWith('changed password'))).toBe(true);
  });

  it('refuses API keys (403) for every call on factors, sessions and the password', async () => {
    const user = await portal.createUser();
    const key = generateApiKey();
    await user.api.accessTokens.create(key);
    const calls: [string, string, unknown?][] = [
      ['POST', '/user/me/totp'],
      ['POST', '/user/me/totp/confirm', { Code: '123456' }],
      ['GET', '/user/me/session'],
      ['DELETE', '/user/me/session/1'],
      ['DELETE', '/user/me/session'],
      ['POST', '/user/me/password', { Password: USER_PASSWORD, NewPassword: 'a-new-long-passphrase-9' }],
    ];
    for (const [method, path, body] of calls) expect((await call(portal, method, path, { token: key, body })).status, `${method} ${path}`).toBe(403);
    const adminKey = generateApiKey();
    await portal.admin.accessTokens.create(adminKey);
    expect((await call(portal, 'DELETE', `/user/${user.user.id}/mfa`, { token: adminKey })).status).toBe(403);
  });

  it("an admin's reset removes every factor and ends the user's sessions", async () => {
    const user = await portal.createUser();
    await enrol(portal, user.token);
    expect((await call(portal, 'DELETE', `/user/${user.user.id}/mfa`, { token: user.token })).status).toBe(403);
    const adminToken = await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await call(portal, 'DELETE', `/user/${user.user.id}/mfa`, { token: adminToken })).status).toBe(204);
    expect((await call(portal, 'GET', '/user/me', { token: user.token })).status).toBe(401);
    const login = await json<{ accesstoken: string }>(
      await call(portal, 'POST', '/validatepassword', { body: { Email: user.email, Password: USER_PASSWORD } }),
      200,
    );
    expect(await json(await call(portal, 'GET', '/user/me', { token: login.accesstoken }), 200)).toMatchObject({ mfa: false });
    expect((await events(portal, user.email)).some((event) => event.startsWith(`reset two-factor of ${user.email}`))).toBe(true);
  });

  it("an admin's reset whose entry cannot be written removes nothing and ends no session: one transaction", async () => {
    const user = await portal.createUser();
    await enrol(portal, user.token);
    const adminToken = await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const allowEvents = await refuseEvents(portal.deps.db, 'mfa.reset');
    try {
      expect((await call(portal, 'DELETE', `/user/${user.user.id}/mfa`, { token: adminToken })).status).toBe(500);
    } finally {
      await allowEvents();
    }
    expect(await json(await call(portal, 'GET', '/user/me', { token: user.token }), 200)).toMatchObject({ mfa: true, totp: true });
  });
});

describe('MFA_REQUIRED=admins', () => {
  const portal = useTestPortal({ MFA_REQUIRED: 'admins', LOGIN_FAILURES_PER_ADDRESS: '1000' });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  let enrolledAdmin = '';

  it('restricts an admin without a second factor to enrolling one, until they do', async () => {
    const login = await json<{ accesstoken: string }>(
      await call(portal, 'POST', '/validatepassword', { body: { Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD } }),
      200,
    );
    const token = login.accesstoken;
    expect(await json(await call(portal, 'GET', '/user/me', { token }), 200)).toMatchObject({ mfa: false, mfaEnrollmentRequired: true });
    const refused = await json<{ error: { code: string } }>(await call(portal, 'GET', '/client', { token }), 403);
    expect(refused.error.code).toBe('mfa_enrollment_required');
    expect((await call(portal, 'GET', '/verify?app=anything', { token })).status).toBe(403);
    expect((await call(portal, 'GET', '/user/me/session', { token })).status).toBe(200);
    await enrol(portal, token);
    expect(await json(await call(portal, 'GET', '/user/me', { token }), 200)).toMatchObject({ mfa: true, mfaEnrollmentRequired: false });
    expect((await call(portal, 'GET', '/client', { token })).status).toBe(200);
    enrolledAdmin = token;
  });

  it('leaves users who are not admins alone', async () => {
    const admin = portal.client(enrolledAdmin);
    const owner = await admin.clients.create(unique('client'));
    const invite = await admin.invites.create({ email: `${unique('user')}@example.com`, clientid: owner.id, apps: [] });
    const { accesstoken } = await portal.anonymous.auth.register({ Token: invite.token, Password: USER_PASSWORD });
    expect(await json(await call(portal, 'GET', '/user/me', { token: accesstoken }), 200)).toMatchObject({ mfaEnrollmentRequired: false });
  });
});

describe.skipIf(testDialect() !== 'postgres')('on PostgreSQL without SECRET_KEY', () => {
  const portal = useTestPortal({ SECRET_KEY: '' });
  it('enrolling an authenticator app answers 503 naming SECRET_KEY', async () => {
    const { token } = await portal.createUser();
    const body = await json<{ error: { message: string } }>(await call(portal, 'POST', '/user/me/totp', { token }), 503);
    expect(body.error.message).toContain('SECRET_KEY');
  });
});
