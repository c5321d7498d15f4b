/**
 * Passkeys (docs/security.md, docs/api.md): registration, list, rename, delete; sign-in as a second
 * factor and alone; the challenge's single use, expiry, purpose and user; origin and RP ID;
 * signature counters; API keys refused; another user's passkey 404; the admin's reset. A software
 * authenticator (test/support/software-authenticator.ts) makes real ceremony answers.
 */
import { generateApiKey } from '@tools-portal/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addPasskey, authenticatorFor, call, json, signInOptions, validate, type Options, type PasskeyBody } from './support/passkey-ceremony.js';
import { SoftwareAuthenticator } from './support/software-authenticator.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, USER_PASSWORD, useTestPortal, type TestPortal } from './support/support.js';

async function passwordStep(portal: TestPortal, email: string): Promise<{ token: string; methods: string[] }> {
  const body = await json<{ mfa: { token: string; methods: string[] } }>(
    await call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: USER_PASSWORD } }),
    200,
  );
  return body.mfa;
}

const events = async (portal: TestPortal, email: string) =>
  (await portal.deps.db('auth_log').where({ user: email }).orderBy('id').select('type', 'event')) as { type: string; event: string }[];

describe('passkeys', () => {
  // Every ceremony comes from one address: past the default PASSKEY_CHALLENGES_PER_ADDRESS.
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000', PASSKEY_CHALLENGES_PER_ADDRESS: '1000' });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('registers, lists, renames and deletes passkeys, each change an event-log row', async () => {
    const user = await portal.createUser();
    const options = await json<Options>(await call(portal, 'POST', '/user/me/passkey/options', { token: user.token }), 200);
    expect(options.rp?.id).toBe(new URL(portal.deps.config.publicUrl).hostname);
    expect(options.authenticatorSelection?.residentKey).toBe('required');
    const authenticator = authenticatorFor(portal);
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const first = await json<PasskeyBody>(
      await call(portal, 'POST', '/user/me/passkey', { token: user.token, userAgent: chrome, body: { response: authenticator.register(options) } }),
      201,
    );
    expect(first.name).toBe('Chrome on Linux');
    expect(Number.isNaN(Date.parse(first.createdTimestamp))).toBe(false);
    const { passkey: second } = await addPasskey(portal, user.token, 'Laptop');
    expect(second.name).toBe('Laptop');
    // The second ceremony excluded the first passkey.
    const third = await json<Options>(await call(portal, 'POST', '/user/me/passkey/options', { token: user.token }), 200);
    expect(third.excludeCredentials).toHaveLength(2);
    expect(third.excludeCredentials?.map((c) => c.id)).toContain(authenticator.id);
    expect(await json<PasskeyBody[]>(await call(portal, 'GET', '/user/me/passkey', { token: user.token }), 200)).toEqual([first, second]);
    const renamed = await json<PasskeyBody>(await call(portal, 'PUT', `/user/me/passkey/${first.id}`, { token: user.token, body: { name: 'Desk' } }), 200);
    expect(renamed).toEqual({ ...first, name: 'Desk' });
    expect((await call(portal, 'PUT', `/user/me/passkey/${first.id}`, { token: user.token, body: { name: '  ' } })).status).toBe(400);
    expect((await call(portal, 'DELETE', `/user/me/passkey/${second.id}`, { token: user.token })).status).toBe(204);
    expect((await call(portal, 'DELETE', `/user/me/passkey/${second.id}`, { token: user.token })).status).toBe(404);
    expect(await json<PasskeyBody[]>(await call(portal, 'GET', '/user/me/passkey', { token: user.token }), 200)).toEqual([{ ...first, name: 'Desk' }]);
    const types = (await portal.deps.db('auth_log').where('event', 'like', '%passkey "%').orderBy('id').select('type')).map((row) => row.type);
    expect(types.slice(-4)).toEqual(['passkey.add', 'passkey.add', 'passkey.rename', 'passkey.remove']);
    // A registered answer cannot be registered again (its challenge is used up).
    expect((await call(portal, 'POST', '/user/me/passkey', { token: user.token, body: { response: authenticator.register(options) } })).status).toBe(400);
  });

  it('a passkey is a second factor after the password; the pending sign-in lists it', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    // A passkey is a second factor, not an authenticator app.
    expect(await json(await call(portal, 'GET', '/user/me', { token: user.token }), 200)).toMatchObject({ mfa: true, totp: false });
    const pending = await passwordStep(portal, user.email);
    expect(pending.methods).toEqual(['passkey']);
    const options = await signInOptions(portal, pending.token);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
    const response = await validate(portal, authenticator.assert(options), pending.token);
    expect(response.headers.get('set-cookie') ?? '').toContain('accesstoken=');
    const { accesstoken } = await json<{ accesstoken: string }>(response, 200);
    expect((await call(portal, 'GET', '/user/me', { token: accesstoken })).status).toBe(200);
    // The pending sign-in is used up.
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)), pending.token)).status).toBe(401);
    expect((await events(portal, user.email)).some((row) => row.event === 'login with password and passkey')).toBe(true);
  });

  it('a passkey signs in alone (discoverable, user verification required)', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    const options = await signInOptions(portal);
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe('required');
    // Without user verification, refused.
    expect((await validate(portal, authenticator.assert(options, { userVerified: false }))).status).toBe(401);
    const again = await signInOptions(portal);
    const { accesstoken } = await json<{ accesstoken: string }>(await validate(portal, authenticator.assert(again)), 200);
    const me = await json<{ email: string }>(await call(portal, 'GET', '/user/me', { token: accesstoken }), 200);
    expect(me.email).toBe(user.email);
    expect((await events(portal, user.email)).some((row) => row.type === 'passkey.login' && row.event === 'login with a passkey')).toBe(true);
  });

  it('refuses a replayed challenge, an expired one, and one of another purpose or user', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    const options = await signInOptions(portal);
    const answer = authenticator.assert(options);
    expect((await validate(portal, answer)).status).toBe(200);
    // The same answer again, and a new answer to the used challenge.
    expect((await validate(portal, answer)).status).toBe(401);
    expect((await validate(portal, authenticator.assert(options))).status).toBe(401);
    // Expired: 5 minutes and a second later.
    const late = await signInOptions(portal);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5 * 60 * 1000 + 1000);
    expect((await validate(portal, authenticator.assert(late))).status).toBe(401);
    vi.useRealTimers();
    // A registration challenge does not sign in.
    const registration = await json<Options>(await call(portal, 'POST', '/user/me/passkey/options', { token: user.token }), 200);
    expect((await validate(portal, authenticator.assert(registration))).status).toBe(401);
    // A challenge made for another user's pending sign-in does not serve this user's passkey.
    const other = await portal.createUser();
    await addPasskey(portal, other.token);
    const otherPending = await passwordStep(portal, other.email);
    const otherOptions = await signInOptions(portal, otherPending.token);
    expect((await validate(portal, authenticator.assert(otherOptions), otherPending.token)).status).toBe(401);
    expect((await validate(portal, authenticator.assert(otherOptions))).status).toBe(401);
  });

  it('two concurrent answers to one challenge: exactly one signs in', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    const options = await signInOptions(portal);
    const answers = [authenticator.assert(options), authenticator.assert(options)];
    const statuses = (await Promise.all(answers.map((answer) => validate(portal, answer)))).map((response) => response.status).sort();
    expect(statuses).toEqual([200, 401]);
  });

  it('refuses another origin or RP ID, at registration and at sign-in', async () => {
    const user = await portal.createUser();
    const elsewhere = new SoftwareAuthenticator('https://evil.example');
    const options = await json<Options>(await call(portal, 'POST', '/user/me/passkey/options', { token: user.token }), 200);
    expect((await call(portal, 'POST', '/user/me/passkey', { token: user.token, body: { response: elsewhere.register(options) } })).status).toBe(400);
    const { authenticator } = await addPasskey(portal, user.token);
    const origin = new URL(portal.deps.config.publicUrl).origin;
    const wrongRp = await json<Options>(await call(portal, 'POST', '/user/me/passkey/options', { token: user.token }), 200);
    expect(
      (
        await call(portal, 'POST', '/user/me/passkey', {
          token: user.token,
          body: { response: authenticatorFor(portal).register(wrongRp, { rpId: 'evil.example' }) },
        })
      ).status,
    ).toBe(400);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal), { origin: 'https://evil.example' }))).status).toBe(401);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal), { origin: `${origin}.evil.example` }))).status).toBe(401);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal), { rpId: 'evil.example' }))).status).toBe(401);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(200);
  });

  it('refuses a signature counter that does not move forward (a cloned authenticator)', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(200);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(200);
    authenticator.counter = 0; // the clone's counter is behind: its next assertion says 1
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(401);
    authenticator.counter = 10;
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(200);
  });

  it('a wrong passkey counts against the pending sign-in: the fifth voids it', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    const stranger = authenticatorFor(portal);
    const pending = await passwordStep(portal, user.email);
    for (let i = 0; i < 5; i += 1)
      expect((await validate(portal, stranger.assert(await signInOptions(portal, pending.token)), pending.token)).status).toBe(401);
    expect((await call(portal, 'POST', '/passkey/options', { body: { MfaToken: pending.token } })).status).toBe(401);
    expect((await validate(portal, authenticator.assert({ challenge: 'AAAA' }), pending.token)).status).toBe(401);
  });

  it("refuses API keys (403) on every passkey call; another user's passkey answers 404", async () => {
    const user = await portal.createUser();
    const { passkey } = await addPasskey(portal, user.token);
    const key = generateApiKey();
    await user.api.accessTokens.create(key);
    const calls: [string, string, unknown?][] = [
      ['POST', '/user/me/passkey/options'],
      ['POST', '/user/me/passkey', { response: authenticatorFor(portal).register({ challenge: 'AAAA' }) }],
      ['GET', '/user/me/passkey'],
      ['PUT', `/user/me/passkey/${passkey.id}`, { name: 'Stolen' }],
      ['DELETE', `/user/me/passkey/${passkey.id}`],
    ];
    for (const [method, path, body] of calls) expect((await call(portal, method, path, { token: key, body })).status, `${method} ${path}`).toBe(403);
    const other = await portal.createUser();
    expect((await call(portal, 'PUT', `/user/me/passkey/${passkey.id}`, { token: other.token, body: { name: 'Mine' } })).status).toBe(404);
    expect((await call(portal, 'DELETE', `/user/me/passkey/${passkey.id}`, { token: other.token })).status).toBe(404);
    expect(await json<PasskeyBody[]>(await call(portal, 'GET', '/user/me/passkey', { token: user.token }), 200)).toEqual([passkey]);
  });

  it('no input answers 500: malformed ceremony answers are 400 or 401', async () => {
    const user = await portal.createUser();
    const bodies: unknown[] = [
      {},
      { response: 'x' },
      { response: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'not base64 !!' } } },
      {
        response: {
          id: 'x',
          rawId: 'x',
          type: 'public-key',
          response: { clientDataJSON: Buffer.from('{"challenge":1}').toString('base64url'), attestationObject: 'AA' },
        },
      },
    ];
    for (const body of bodies) {
      expect([400, 401]).toContain((await call(portal, 'POST', '/user/me/passkey', { token: user.token, body })).status);
      expect([400, 401]).toContain((await call(portal, 'POST', '/validatepasskey', { body })).status);
    }
    expect((await call(portal, 'POST', '/passkey/options', { body: { MfaToken: 'nope' } })).status).toBe(401);
  });

  it("an admin's reset and the user's deletion remove passkeys", async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    const adminToken = await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await call(portal, 'DELETE', `/user/${user.user.id}/mfa`, { token: adminToken })).status).toBe(204);
    expect(Number((await portal.deps.db('passkeys').where({ user_id: user.user.id }).count({ n: '*' }).first())?.n)).toBe(0);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(401);
    const again = await portal.createUser();
    await addPasskey(portal, again.token);
    expect((await call(portal, 'DELETE', `/user/${again.user.id}`, { token: adminToken })).status).toBe(204);
    expect(Number((await portal.deps.db('passkeys').where({ user_id: again.user.id }).count({ n: '*' }).first())?.n)).toBe(0);
  });
});

describe('passkeys with MFA_REQUIRED=admins', () => {
  const portal = useTestPortal({ MFA_REQUIRED: 'admins', LOGIN_FAILURES_PER_ADDRESS: '1000', PASSKEY_CHALLENGES_PER_ADDRESS: '1000' });

  it('a passkey registration lifts the restriction of that session; the passkey alone then signs in unrestricted', async () => {
    const token = await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await json<{ mfaEnrollmentRequired: boolean }>(await call(portal, 'GET', '/user/me', { token }), 200)).mfaEnrollmentRequired).toBe(true);
    expect((await call(portal, 'GET', '/user/me/passkey', { token })).status).toBe(200);
    expect((await call(portal, 'GET', '/user/me/accesstoken', { token })).status).toBe(403);
    const { authenticator } = await addPasskey(portal, token);
    expect((await json<{ mfaEnrollmentRequired: boolean }>(await call(portal, 'GET', '/user/me', { token }), 200)).mfaEnrollmentRequired).toBe(false);
    expect((await call(portal, 'GET', '/user/me/accesstoken', { token })).status).toBe(200);
    const { accesstoken } = await json<{ accesstoken: string }>(await validate(portal, authenticator.assert(await signInOptions(portal))), 200);
    expect((await json<{ mfaEnrollmentRequired: boolean }>(await call(portal, 'GET', '/user/me', { token: accesstoken }), 200)).mfaEnrollmentRequired).toBe(
      false,
    );
  });
});
