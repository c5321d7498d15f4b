/**
 * Password reset by mail (docs/email.md, docs/security.md): links work once, expire, are voided
 * by a newer one; unknown emails get no mail and the same answer; requests are limited; using a
 * link ends every session and clears the email's ban.
 */
import { describe, expect, it, vi } from 'vitest';
import { PASSWORD_TOO_SHORT } from '@tools-portal/core';
import { totpCode } from '../src/services/sign-in/totp.js';
import { databaseContents } from './support/database.js';
import { useMailedPortal } from './support/smtp.js';
import { becomesTrue, failure, refuses, signedIn, unique, useTestPortal, type TestPortal } from './support/support.js';

const NEW_PASSWORD = 'a brand new password';
let addressCounter = 0;
/** Each test asks from an address of its own, so that the per-address limit is the test's alone. */
const newAddress = () => `198.51.100.${++addressCounter}`;

async function forgot(portal: TestPortal, email: string, address: string): Promise<Response> {
  return portal.fetch('/api/auth/v1/forgotpassword', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ Email: email }),
  });
}

const tokenOf = (text: string) => /\/auth\/#\/reset\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

describe('password reset with mail', () => {
  const { portal, smtp } = useMailedPortal({ TRUST_PROXY: 'true' });

  it('mails a link that works once, signs in, ends the other sessions, and sends a notice', async () => {
    const user = await portal.createUser();
    const address = newAddress();
    const answer = await forgot(portal, user.email, address);
    expect(answer.status).toBe(204);
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Reset your Tools-Server password');
    const token = tokenOf(mail.text);
    expect(mail.text).toContain(`${portal.url}/auth/#/reset/${token}`);
    expect(mail.text).toContain(address);
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    // The mail can reach the SMTP server a moment before the sender marks it sent and drops its
    // body; from then on the link is nowhere in the database (the token is stored as a hash).
    const delivered = async () =>
      (await portal.admin.mail.list()).some((entry) => entry.to === user.email && entry.kind === 'password-reset' && entry.status === 'sent');
    expect(await becomesTrue(delivered, 5_000, 50)).toBe(true);
    expect(await databaseContents(portal.deps.db)).not.toContain(token);

    const session = await signedIn(portal.anonymous.auth.resetPassword({ Token: token, Password: NEW_PASSWORD }));
    expect(session.redirect).toBe('/auth/#/applist/');
    expect((await portal.client(session.accesstoken).users.me()).email).toBe(user.email);
    expect(await refuses(user.api.users.me())).toBe(true);
    expect(await refuses(portal.login(user.email, user.password))).toBe(true);
    expect(await portal.login(user.email, NEW_PASSWORD)).toBeTruthy();
    // Through the one sign-in pipeline: the reset, then its sign-in.
    const events = (await portal.admin.logs.page(1, 100)).filter((entry) => entry.user === user.email).map((entry) => entry.event);
    expect(events).toContain('login with a password reset link');
    expect(events).toContain('password reset with a link from mail; every session ended');

    expect(await failure(portal.anonymous.auth.resetPassword({ Token: token, Password: 'yet another password' }))).toMatchObject({
      code: 'invalid_input',
      field: 'Token',
      message: 'Token: this password reset link has already been used',
    });
    const mails = await smtp.waitFor(user.email, 2);
    expect(mails[1].subject).toBe('Your Tools-Server password was reset');
    expect(mails[1].text).toContain(`${portal.url}/auth/#/reset`);
  });

  it('a link replaces the password, not the second factor: a user with one must still give it', async () => {
    const user = await portal.createUser();
    const { secret } = await user.api.account.totp.start();
    const { recoveryCodes } = await user.api.account.totp.confirm(totpCode(secret, Date.now()));
    expect((await forgot(portal, user.email, newAddress())).status).toBe(204);
    // The enrolment's notice came first (mail-notices-account.test.ts), then the link.
    const mails = await smtp.waitFor(user.email, 2);
    expect(mails.map((mail) => mail.subject)).toEqual(['A second factor was added to your Tools-Server account', 'Reset your Tools-Server password']);
    const token = tokenOf(mails[1].text);

    const reset = await portal.fetch('/api/auth/v1/resetpassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: portal.url },
      body: JSON.stringify({ Token: token, Password: NEW_PASSWORD }),
    });
    expect(reset.status).toBe(200);
    expect(reset.headers.get('set-cookie') ?? '').not.toContain('accesstoken=');
    const answer = (await reset.json()) as { accesstoken?: string; mfa?: { token: string; methods: string[] } };
    expect(answer.accesstoken).toBeUndefined();
    expect(answer.mfa?.methods).toContain('totp');
    // The password did change, and the second factor finishes the sign-in (a recovery code: the
    // app's current code was spent on the enrolment, and a code is accepted once).
    const signedIn = await portal.anonymous.auth.validateMfa(answer.mfa!.token, recoveryCodes[0]);
    expect((await portal.client(signedIn.accesstoken).users.me()).email).toBe(user.email);
  });

  it('answers an unknown email exactly like a known one, and mails nobody', async () => {
    const user = await portal.createUser();
    const stranger = `${unique('stranger')}@example.com`;
    const known = await forgot(portal, user.email, newAddress());
    const unknown = await forgot(portal, stranger, newAddress());
    expect([unknown.status, await unknown.text()]).toEqual([known.status, await known.text()]);
    const headers = (response: Response) => [...response.headers.keys()].filter((name) => name !== 'date').sort();
    expect(headers(unknown)).toEqual(headers(known));
    await smtp.waitFor(user.email);
    // The sender has run past the known email's mail; the unknown one was never queued.
    expect((await portal.admin.mail.list()).some((entry) => entry.to === stranger)).toBe(false);
    expect(smtp.to(stranger)).toEqual([]);
  });

  it('a newer link voids the older one; an expired or unknown token is refused naming Token', async () => {
    const user = await portal.createUser();
    const address = newAddress();
    await forgot(portal, user.email, address);
    await forgot(portal, user.email, address);
    const [first, second] = await smtp.waitFor(user.email, 2);
    const refused = await failure(portal.anonymous.auth.resetPassword({ Token: tokenOf(first.text), Password: NEW_PASSWORD }));
    expect(refused).toMatchObject({ code: 'invalid_input', field: 'Token' });

    await portal.deps.db('password_resets').update({ expires_at: Date.now() - 1 });
    expect(await failure(portal.anonymous.auth.resetPassword({ Token: tokenOf(second.text), Password: NEW_PASSWORD }))).toMatchObject({
      field: 'Token',
      message: 'Token: this password reset link has expired',
    });
    for (const Token of ['nope', 'x'.repeat(512), '../../etc', '%00']) {
      expect(await failure(portal.anonymous.auth.resetPassword({ Token, Password: NEW_PASSWORD }))).toMatchObject({ code: 'invalid_input', field: 'Token' });
    }
  });

  it('applies the password rules with their messages', async () => {
    const user = await portal.createUser();
    await forgot(portal, user.email, newAddress());
    const token = tokenOf((await smtp.waitFor(user.email))[0].text);
    expect(await failure(portal.anonymous.auth.resetPassword({ Token: token, Password: 'short' }))).toMatchObject({
      field: 'Password',
      message: `Password: ${PASSWORD_TOO_SHORT}`,
    });
    expect(await failure(portal.anonymous.auth.resetPassword({ Token: token, Password: 'password123' }))).toMatchObject({ field: 'Password' });
    expect(await failure(portal.anonymous.auth.resetPassword({ Token: token, Password: `my ${user.email.split('@')[0]} secret` }))).toMatchObject({
      field: 'Password',
    });
    // Refused passwords do not use up the link.
    expect((await signedIn(portal.anonymous.auth.resetPassword({ Token: token, Password: NEW_PASSWORD }))).accesstoken).toBeTruthy();
  });

  it('of two concurrent uses of one link exactly one wins', async () => {
    const user = await portal.createUser();
    await forgot(portal, user.email, newAddress());
    const token = tokenOf((await smtp.waitFor(user.email))[0].text);
    const results = await Promise.allSettled(
      ['first password 1', 'second password 2', 'third password 3'].map((Password) => portal.anonymous.auth.resetPassword({ Token: token, Password })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });

  it("clears the email's failed-login ban", async () => {
    const user = await portal.createUser();
    for (let i = 0; i < 6; i++) await portal.login(user.email, 'wrong password!').catch(() => undefined);
    expect((await failure(portal.login(user.email, user.password))).code).toBe('too_many_requests');
    await forgot(portal, user.email, newAddress());
    // The lock's notice, then the link.
    const mails = await smtp.waitFor(user.email, 2);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(['Reset your Tools-Server password', 'Your Tools-Server account was locked after failed logins']);
    const token = tokenOf(mails.find((mail) => mail.subject.startsWith('Reset'))!.text);
    await portal.anonymous.auth.resetPassword({ Token: token, Password: NEW_PASSWORD });
    expect(await portal.login(user.email, NEW_PASSWORD)).toBeTruthy();
  });

  const resetMails = async (email: string) =>
    Number(((await portal.deps.db('mail_outbox').where({ recipient: email, kind: 'password-reset' }).count({ n: '*' }).first()) as { n: number | string }).n);

  it('mails an email at most 3 times in any 15 minutes; later requests answer 204 and send nothing, never 429 (issue 25, point 12)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);
      vi.setSystemTime(T0);
      const user = await portal.createUser();
      const ask = async (times = 1) => {
        const answers = await Promise.all(Array.from({ length: times }, () => forgot(portal, user.email, newAddress())));
        return Promise.all(answers.map(async (answer) => [answer.status, await answer.text()]));
      };
      const okay = (times: number) => Array(times).fill([204, '']);
      // A stranger asks 6 times at once: 204 every time, 3 mails.
      const victim = await portal.createUser();
      const burst = await Promise.all(Array.from({ length: 6 }, () => forgot(portal, victim.email, newAddress()).then((answer) => answer.status)));
      expect(burst).toEqual(Array(6).fill(204));
      expect(await resetMails(victim.email)).toBe(3);

      // Any 15 minutes, not a fixed window: one mail at T0, two at T0 + 10 minutes.
      expect(await ask()).toEqual(okay(1));
      vi.setSystemTime(T0 + 10 * 60_000);
      expect(await ask(3)).toEqual(okay(3));
      expect(await resetMails(user.email)).toBe(3);
      vi.setSystemTime(T0 + 15 * 60_000 - 1);
      expect(await ask()).toEqual(okay(1));
      expect(await resetMails(user.email)).toBe(3);
      // The first mail is 15 minutes old: one more, not three.
      vi.setSystemTime(T0 + 15 * 60_000);
      expect(await ask(2)).toEqual(okay(2));
      expect(await resetMails(user.email)).toBe(4);
      vi.setSystemTime(T0 + 25 * 60_000);
      expect(await ask(3)).toEqual(okay(3));
      expect(await resetMails(user.email)).toBe(6);
      // Each silent request is logged (one entry a minute per address, with a count).
      const silenced = async (email: string) => {
        const rows = await portal.deps
          .db('auth_log')
          .where({ user: email, event: 'password reset not sent: 3 mails to this email in 15 minutes' })
          .select('count');
        return rows.map((row) => Number(row.count));
      };
      expect((await silenced(victim.email)).reduce((total, count) => total + count, 0)).toBe(3);
      expect(await silenced(user.email)).toEqual([1, 1, 1, 1]);

      // Unknown emails answer alike: 204, never 429.
      const stranger = `${unique('limited')}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await forgot(portal, stranger, newAddress())).status);
      expect(statuses).toEqual(Array(8).fill(204));
    } finally {
      vi.useRealTimers();
    }
  });

  it('limits requests per address (429 with Retry-After)', async () => {
    const address = newAddress();
    const concurrent = await Promise.all(Array.from({ length: 25 }, () => forgot(portal, `${unique('spray')}@example.com`, address)));
    expect(concurrent.filter((response) => response.status === 204)).toHaveLength(20);
    const limited = concurrent.find((response) => response.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('an admin makes a link for a user, mailed to them; others may not', async () => {
    const user = await portal.createUser();
    const { link, sent } = await portal.admin.users.passwordReset(user.user.id);
    expect(sent).toBe(true);
    expect(link).toMatch(new RegExp(`^${portal.url}/auth/#/reset/[A-Za-z0-9_-]{43,}$`));
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('An administrator sent you this link');
    const { accesstoken } = await signedIn(portal.anonymous.auth.resetPassword({ Token: tokenOf(link), Password: NEW_PASSWORD }));
    expect((await portal.client(accesstoken).users.me()).id).toBe(user.user.id);
    const other = await portal.createUser();
    expect((await failure(other.api.users.passwordReset(user.user.id))).code).toBe('forbidden');
    expect((await failure(portal.admin.users.passwordReset(999_999))).code).toBe('not_found');
  });
});

describe('password reset without mail', () => {
  const portal = useTestPortal();

  it('forgotpassword still answers 204 and queues nothing; an admin still gets a link to pass on', async () => {
    const user = await portal.createUser();
    const answer = await portal.fetch('/api/auth/v1/forgotpassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: user.email }),
    });
    expect(answer.status).toBe(204);
    expect(await portal.deps.db('mail_outbox').select('id')).toEqual([]);
    const { link, sent } = await portal.admin.users.passwordReset(user.user.id);
    expect(sent).toBe(false);
    const { accesstoken } = await signedIn(portal.anonymous.auth.resetPassword({ Token: tokenOf(link), Password: NEW_PASSWORD }));
    expect((await portal.client(accesstoken).users.me()).email).toBe(user.email);
  });
});
