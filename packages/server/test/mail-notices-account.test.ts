/**
 * Security notices by mail for changes to an account (docs/email.md): the password changed, an
 * authenticator app added, second factors removed by an admin. Each is queued in the change's own
 * transaction and delivered to a real SMTP server; a refused change mails nothing.
 */
import { describe, expect, it } from 'vitest';
import { totpCode } from '../src/services/sign-in/totp.js';
import { useMailedPortal } from './support/smtp.js';

describe('security notices for account changes', () => {
  const { portal, smtp } = useMailedPortal();

  const noticesTo = async (email: string) =>
    (await portal.admin.mail.list()).filter((mail) => mail.to === email && mail.kind.startsWith('notice.')).map((mail) => mail.kind);
  const refused = (promise: Promise<unknown>) =>
    promise.then(
      () => 'done',
      (error: { code?: string }) => error.code,
    );

  it('a changed password; a refused change (wrong current password) mails nothing', async () => {
    const user = await portal.createUser();
    expect(await refused(user.api.account.changePassword('not the password!', 'a-new-and-long-passphrase-31'))).toBe('unauthenticated');
    expect(await noticesTo(user.email)).toEqual([]);

    await user.api.account.changePassword(user.password, 'a-new-and-long-passphrase-31');
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Your Tools-Server password was changed');
    expect(mail.text).toContain(`The password of your account was changed (${user.email})`);
    expect(mail.text).toContain('From: 127.0.0.1');
    expect(mail.text).toContain(`${portal.url}/auth/#/reset`);
    expect(await noticesTo(user.email)).toEqual(['notice.password-changed']);
  });

  it('an authenticator app added; a wrong code mails nothing', async () => {
    const user = await portal.createUser();
    const { secret } = await user.api.account.totp.start();
    const wrong = totpCode(secret, Date.now()) === '000000' ? '111111' : '000000';
    expect(await refused(user.api.account.totp.confirm(wrong))).toBe('invalid_input');
    expect(await noticesTo(user.email)).toEqual([]);

    await user.api.account.totp.confirm(totpCode(secret, Date.now()));
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('A second factor was added to your Tools-Server account');
    expect(mail.text).toContain(`A second factor (authenticator app) was added to your account (${user.email})`);
    expect(await noticesTo(user.email)).toEqual(['notice.second-factor-added']);
  });

  it("an admin's reset of the second factors; none for a user who had none", async () => {
    const bare = await portal.createUser();
    await portal.admin.users.resetMfa(bare.user.id);
    expect(await noticesTo(bare.email)).toEqual([]);

    const user = await portal.createUser();
    const { secret } = await user.api.account.totp.start();
    await user.api.account.totp.confirm(totpCode(secret, Date.now()));
    await portal.admin.users.resetMfa(user.user.id);
    const mails = await smtp.waitFor(user.email, 2);
    const removed = mails.find((mail) => mail.subject === 'A second factor was removed from your Tools-Server account');
    expect(removed?.text).toContain(`A second factor (authenticator app, by an administrator) was removed from your account (${user.email})`);
    expect((await noticesTo(user.email)).sort()).toEqual(['notice.second-factor-added', 'notice.second-factor-removed']);
  });

  it('the authenticator app turned off, and new recovery codes; a wrong proof mails nothing', async () => {
    const user = await portal.createUser();
    const { secret } = await user.api.account.totp.start();
    await user.api.account.totp.confirm(totpCode(secret, Date.now()));
    await smtp.waitFor(user.email);
    expect(await refused(user.api.account.newRecoveryCodes({ Password: 'not the password!' }))).toBe('invalid_input');
    expect(await refused(user.api.account.totp.disable({ Password: 'not the password!' }))).toBe('invalid_input');
    expect(await noticesTo(user.email)).toEqual(['notice.second-factor-added']);

    await user.api.account.newRecoveryCodes({ Password: user.password });
    const renewed = (await smtp.waitFor(user.email, 2)).find((mail) => mail.subject === 'New recovery codes for your Tools-Server account');
    expect(renewed?.text).toContain(`New recovery codes were made for your account; the old ones no longer work (${user.email})`);

    await user.api.account.totp.disable({ Password: user.password });
    const removed = (await smtp.waitFor(user.email, 3)).find((mail) => mail.subject === 'A second factor was removed from your Tools-Server account');
    expect(removed?.text).toContain(`A second factor (authenticator app) was removed from your account (${user.email})`);
    expect((await noticesTo(user.email)).sort()).toEqual(['notice.recovery-codes-renewed', 'notice.second-factor-added', 'notice.second-factor-removed']);
  });
});
