/**
 * Security notices by mail (docs/email.md): each says what happened, when, from where, and what
 * to do if it was not the owner. Locked after failed logins; a browser the account has not used.
 */
import { describe, expect, it } from 'vitest';
import { useMailedPortal } from './support/smtp.js';
import { unique, type TestPortal } from './support/support.js';

async function login(portal: TestPortal, email: string, password: string, options: { address?: string; device?: string } = {}) {
  const response = await portal.fetch('/api/auth/v1/validatepassword', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': options.address ?? '192.0.2.1',
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) NoticeTest/1.0',
      ...(options.device ? { cookie: `portal_device=${options.device}` } : {}),
    },
    body: JSON.stringify({ Email: email, Password: password }),
  });
  const device = /portal_device=([^;]+)/.exec(response.headers.getSetCookie().join('\n'))?.[1];
  return { status: response.status, device };
}

/** Registers from an invite in a browser of its own: the new user, and that browser's device cookie. */
async function register(portal: TestPortal) {
  const email = `${unique('registered')}@example.com`;
  const password = 'registered-password-42';
  const owner = await portal.admin.clients.create(unique('client'));
  const invite = await portal.admin.invites.create({ email, clientid: owner.id, apps: [] });
  const response = await portal.fetch('/api/auth/v1/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.1' },
    body: JSON.stringify({ Token: invite.token, Password: password }),
  });
  expect(response.status).toBe(200);
  const device = /portal_device=([^;]+)/.exec(response.headers.getSetCookie().join('\n'))?.[1];
  return { email, password, device };
}

describe('security notices', () => {
  const { portal, smtp } = useMailedPortal({ TRUST_PROXY: 'true' });

  const noticesTo = async (email: string) => (await portal.admin.mail.list()).filter((mail) => mail.to === email).map((mail) => mail.kind);

  it('the account locked after failed logins, with the address that tried', async () => {
    const user = await portal.createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(portal, user.email, 'not the password!', { address: `203.0.113.${i + 1}` })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('Your Tools-Server account was locked after failed logins');
    expect(mail.text).toContain(`Your account was locked for 10 minutes after too many failed logins (${user.email})`);
    expect(mail.text).toContain('From: 203.0.113.5 (Mozilla/5.0 (X11; Linux x86_64) NoticeTest/1.0)');
    expect(mail.text).toMatch(/When: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(mail.text).toContain(`${portal.url}/auth/#/reset`);
    // One notice for one lock, however many attempts follow.
    expect(await noticesTo(user.email)).toEqual(['notice.account-locked']);
  });

  it('no mail for an email that has no account, however often it is tried', async () => {
    const stranger = `${unique('stranger')}@example.com`;
    for (let i = 0; i < 6; i++) await login(portal, stranger, 'not the password!', { address: `203.0.113.${100 + i}` });
    expect(await noticesTo(stranger)).toEqual([]);
  });

  it('a sign-in from a browser the account has not used before; not from the registering browser, not a known browser', async () => {
    const user = await register(portal);
    expect(user.device).toBeDefined();
    const first = await login(portal, user.email, user.password, { device: user.device });
    expect(first.status).toBe(200);
    const again = await login(portal, user.email, user.password, { device: first.device });
    expect(again.status).toBe(200);
    expect(await noticesTo(user.email)).toEqual([]);

    expect((await login(portal, user.email, user.password, { address: '198.51.100.77' })).status).toBe(200);
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('New sign-in to your Tools-Server account');
    expect(mail.text).toContain('From: 198.51.100.77');
    expect(mail.text).toContain('If it was not, set a new password with this link at once and tell an administrator');
  });

  it('registering remembers the browser: the very first sign-in from another browser sends the notice (issue 25, point 13)', async () => {
    const user = await register(portal);
    expect((await login(portal, user.email, user.password, { address: '198.51.100.78' })).status).toBe(200);
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.subject).toBe('New sign-in to your Tools-Server account');
    expect(mail.text).toContain('From: 198.51.100.78');
    expect(await noticesTo(user.email)).toEqual(['notice.new-browser']);
  });
});
