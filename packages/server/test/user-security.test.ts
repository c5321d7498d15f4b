/** `GET /user/{id}/security`: an admin's view of a user's sign-ins, counts and times only. */
import { describe, expect, it } from 'vitest';
import { failure, useTestPortal, USER_PASSWORD } from './support/support.js';

describe('a user’s sign-in facts for admins', () => {
  const portal = useTestPortal();

  it('counts live sessions and API keys, tells the last sign-in and whether an authenticator app is set up', async () => {
    const member = await portal.createUser();
    const before = await portal.admin.users.security(member.user.id);
    expect(before).toMatchObject({ totp: false, passkeys: 0, apiKeys: 0 });
    expect(Date.parse(before.createdTimestamp)).toBeLessThanOrEqual(Date.now());

    const { accesstoken } = await portal.anonymous.auth.login({ Email: member.email, Password: USER_PASSWORD });
    await portal.client(accesstoken).accessTokens.create(`apikey-${'a'.repeat(100)}`);
    const after = await portal.admin.users.security(member.user.id);
    expect(after.sessions).toBe(before.sessions + 1);
    expect(after.apiKeys).toBe(1);
    expect(after.lastSignInTimestamp).not.toBeNull();
    expect(Date.parse(after.lastSignInTimestamp!)).toBeGreaterThanOrEqual(Date.parse(before.createdTimestamp) - 1000);

    await portal.admin.users.endSessions(member.user.id);
    expect((await portal.admin.users.security(member.user.id)).sessions).toBe(0);
  });

  it('answers 404 for an unknown user, 400 for a bad id, and only to admins', async () => {
    const member = await portal.createUser();
    expect(await failure(portal.admin.users.security(999_999))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.request('GET', '/user/abc/security'))).toMatchObject({ code: 'invalid_input' });
    expect(await failure(member.api.users.security(member.user.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.users.security(member.user.id))).toMatchObject({ code: 'unauthenticated' });
  });
});
