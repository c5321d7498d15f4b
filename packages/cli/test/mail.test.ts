// toolsctl and mail (docs/cli.md, docs/email.md): invites create --send, users reset-password,
// mail list, against a real portal with a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailEntry } from '@tools-portal/core';
import { startTestSmtp, type TestSmtp } from '../../server/test/support/smtp.js';
import { signedIn, unique, useTestPortal } from '../../server/test/support/support.js';
import { json, removeTempHomes, tempHome, toolsctl, type RunOptions } from './toolsctl.js';

let smtp: TestSmtp;
const env: Record<string, string> = { MAIL_POLL_SECONDS: '1', MAIL_RETRY_SECONDS: '1' };
let home: string;
beforeAll(async () => {
  smtp = await startTestSmtp();
  env.SMTP_URL = smtp.url;
  home = tempHome();
});
afterAll(async () => {
  removeTempHomes();
  await smtp?.stop();
});
const portal = useTestPortal(env);
const run = (args: string[], options: RunOptions = {}) =>
  toolsctl(home, args, { ...options, env: { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token, ...options.env } });

describe('toolsctl with mail', () => {
  it("invites create --send mails the server's link and prints it", async () => {
    const client = await portal.admin.clients.create(unique('Acme'));
    const email = `${unique('ann')}@example.com`;
    const created = await run(['invites', 'create', email, '--client', client.name, '--send']);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`The link was sent by email to ${email}:`);
    const invite = (await portal.admin.invites.list()).find((row) => row.email === email)!;
    expect(created.stdout).toContain(invite.link);
    const [mail] = await smtp.waitFor(email);
    expect(mail.text).toContain(invite.link);
  });

  it("invites resend mails the same link again, in the web's words", async () => {
    const client = await portal.admin.clients.create(unique('Acme'));
    const email = `${unique('again')}@example.com`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    const resent = await run(['invites', 'resend', email]);
    expect(resent.code).toBe(0);
    expect(resent.stdout).toContain(`sent the invitation to ${email} again`);
    const [mail] = await smtp.waitFor(email);
    expect(mail.text).toContain(invite.link);
    expect((await run(['invites', 'resend', 'nobody@example.com'])).code).not.toBe(0);
  });

  it('users reset-password prints a link that works, and mails it', async () => {
    const user = await portal.createUser();
    const quiet = await run(['users', 'reset-password', user.email, '-q']);
    expect(quiet.code).toBe(0);
    const link = quiet.stdout.trim();
    expect(link).toMatch(new RegExp(`^${portal.url}/auth/#/reset/[A-Za-z0-9_-]{43,}$`));
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.text).toContain(link);
    const token = link.split('/').pop()!;
    expect((await signedIn(portal.anonymous.auth.resetPassword({ Token: token, Password: 'a new password from the cli' }))).accesstoken).toBeTruthy();
    expect((await run(['users', 'reset-password', 'nobody@example.com'])).code).not.toBe(0);
  });

  it('mail list shows to, subject, status, attempts and last error', async () => {
    const table = await run(['mail', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ id\s+│ to\s+│ subject\s+│ status\s+│ attempts\s+│ last error/);
    expect(table.stdout).toContain('Your invitation to Tools-Server');
    const entries = json<MailEntry[]>(await run(['mail', 'list', '--json']));
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(entries[0]).not.toHaveProperty('text');
    const user = await portal.createUser();
    expect((await run(['mail', 'list'], { env: { TOOLS_TOKEN: user.token } })).code).not.toBe(0);
  });
});
