/**
 * Lockout as denial of service (docs/security.md): an attacker's guesses ban the email, but the
 * owner's browser, which signed in to the account before (device cookie), still gets in with the
 * right password; the per-address limit still holds, and another account's device cookie is no help.
 */
import { describe, expect, it } from 'vitest';
import { unique, USER_PASSWORD, useTestPortal } from './support/support.js';

// TRUST_PROXY lets each test act from addresses of its own (X-Forwarded-For).
const portal = useTestPortal({ TRUST_PROXY: 'true', LOGIN_FAILURES_PER_ADDRESS: '8' });

let lastAddress = 0;
const newAddress = () => `10.9.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

interface Attempt {
  status: number;
  device?: string;
  setCookie: string;
}

async function login(email: string, password: string, from: string, device?: string): Promise<Attempt> {
  const response = await portal.fetch('/api/auth/v1/validatepassword', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from, ...(device ? { cookie: `portal_device=${device}` } : {}) },
    body: JSON.stringify({ Email: email, Password: password }),
  });
  await response.arrayBuffer();
  const setCookie = response.headers.getSetCookie().join('\n');
  return { status: response.status, device: /portal_device=([^;]+)/.exec(setCookie)?.[1], setCookie };
}

/** An attacker at fresh addresses makes the email's ban (5 wrong guesses). */
async function banEmail(email: string): Promise<void> {
  for (let guess = 0; guess < 5; guess++) expect((await login(email, `wrong-${guess}`, newAddress())).status).toBe(401);
  expect((await login(email, USER_PASSWORD, newAddress())).status).toBe(429);
}

const events = async (email: string) =>
  (await portal.deps.db('auth_log').where({ user: email }).orderBy('id').select('event')).map((row) => row.event as string);

describe('device cookie', () => {
  it('is set at a successful login: HttpOnly, only for the API, a random id stored as a hash', async () => {
    const { email } = await portal.createUser();
    const first = await login(email, USER_PASSWORD, newAddress());
    expect(first.status).toBe(200);
    expect(first.setCookie).toMatch(/portal_device=[A-Za-z0-9_-]{43}; Path=\/api\/auth\/v1; Max-Age=\d+;.*HttpOnly; SameSite=Lax/);
    const stored = await portal.deps.db('login_devices').select('token_hash');
    expect(stored.map((row) => row.token_hash)).not.toContain(first.device);
    // Replaced at every sign-in: the old id no longer counts.
    const second = await login(email, USER_PASSWORD, newAddress(), first.device);
    expect(second.device).not.toBe(first.device);
  });

  it('lets the owner in while the email is banned; an attacker without it gets 429; both are logged', async () => {
    const { email } = await portal.createUser();
    const home = newAddress();
    const { device } = await login(email, USER_PASSWORD, home);
    await banEmail(email);
    expect((await login(email, USER_PASSWORD, newAddress())).status).toBe(429);
    const owner = await login(email, USER_PASSWORD, home, device);
    expect(owner.status).toBe(200);
    const log = await events(email);
    expect(log).toContain('login blocked: too many failed logins');
    expect(log.at(-1)).toBe('login with password from a known device while the email is banned');
  });

  it('is set at registration: the registering browser is a known device at once (issue 25, point 13)', async () => {
    const email = `${unique('registered')}@example.com`;
    const owner = await portal.admin.clients.create(unique('client'));
    const invite = await portal.admin.invites.create({ email, clientid: owner.id, apps: [] });
    const home = newAddress();
    const response = await portal.fetch('/api/auth/v1/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': home },
      body: JSON.stringify({ Token: invite.token, Password: USER_PASSWORD }),
    });
    expect(response.status).toBe(200);
    const setCookie = response.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/portal_device=[A-Za-z0-9_-]{43}; Path=\/api\/auth\/v1; Max-Age=\d+;.*HttpOnly; SameSite=Lax/);
    const device = /portal_device=([^;]+)/.exec(setCookie)?.[1];
    await banEmail(email);
    expect((await login(email, USER_PASSWORD, home, device)).status).toBe(200);
  });

  it('of another account does not help', async () => {
    const victim = await portal.createUser();
    const attacker = await portal.createUser();
    const home = newAddress();
    const { device } = await login(attacker.email, USER_PASSWORD, home);
    await banEmail(victim.email);
    expect((await login(victim.email, USER_PASSWORD, home, device)).status).toBe(429);
    // Nor does a made-up id.
    expect((await login(victim.email, USER_PASSWORD, home, 'A'.repeat(43))).status).toBe(429);
  });

  it('guesses from a known device are limited too (the email limit, per device)', async () => {
    const { email } = await portal.createUser();
    const { device } = await login(email, USER_PASSWORD, newAddress());
    for (let guess = 0; guess < 5; guess++) expect((await login(email, `wrong-${guess}`, newAddress(), device)).status).toBe(401);
    expect((await login(email, USER_PASSWORD, newAddress(), device)).status).toBe(429);
  });

  it('does not pass the per-address ban', async () => {
    const { email } = await portal.createUser();
    const home = newAddress();
    const { device } = await login(email, USER_PASSWORD, home);
    for (let guess = 0; guess < 8; guess++) expect((await login(`${unique('other')}@example.com`, 'wrong', home)).status).toBe(401);
    expect((await login(email, USER_PASSWORD, home, device)).status).toBe(429);
  });
});
