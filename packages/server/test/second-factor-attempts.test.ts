/**
 * Wrong second-factor codes (authenticator and recovery codes) under the brute-force limits of
 * passwords (docs/security.md, Password guessing): bans are checked first, each code is reserved
 * before the check against the address and the email (or the owner's known browser), so that a
 * burst over two instances sharing the database gets at most the limit checked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../src/services/sign-in/totp.js';
import { call } from './support/passkey-ceremony.js';
import { deviceCookieOf, enrol, pendingSignIn, sendCode } from './support/second-factor-steps.js';
import { USER_PASSWORD, useTestPortal, useTwoPortals, type TestPortal } from './support/support.js';

const BURST = 100;
const ADDRESS_LIMIT = 12;

let lastAddress = 0;
const newAddress = () => `10.7.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

/** An attacker at fresh addresses sends wrong passwords for the email. */
async function wrongPasswords(portal: TestPortal, email: string, count: number): Promise<void> {
  for (let guess = 0; guess < count; guess++) {
    const answer = await call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: `wrong-${guess}` }, from: newAddress() });
    expect(answer.status).toBe(401);
  }
}

describe('bans and known browsers at the code step', () => {
  const portal = useTestPortal({ TRUST_PROXY: 'true', LOGIN_FAILURES_PER_ADDRESS: '1000' });
  const T0 = Date.UTC(2026, 10, 23, 12, 0, 10);
  afterEach(() => {
    vi.useRealTimers();
  });

  it("refuses a banned email's codes with 429, even with a pending sign-in younger than the ban", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const { token, email } = await portal.createUser();
    const { secret } = await enrol(portal, token);
    vi.setSystemTime(T0 + 30_000);
    await wrongPasswords(portal, email, 4);
    // The owner signs in between the attacker's guesses; the fifth bans the email for 10 minutes.
    vi.setSystemTime(T0 + 4 * 60_000);
    const pending = await pendingSignIn(portal, email, USER_PASSWORD, { from: newAddress() });
    await wrongPasswords(portal, email, 1);
    // The counting window (5 minutes) has run out, the pending sign-in and the ban have not.
    vi.setSystemTime(T0 + 5 * 60_000 + 40_000);
    for (const code of ['000000', totpCode(secret, Date.now())]) {
      const answer = await sendCode(portal, pending.token, code, { from: newAddress() });
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  /** A user with an authenticator app who has signed in once from `home`, at T0 + 30 s: that browser's device cookie. */
  async function knownBrowser() {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T0);
    const { token, email } = await portal.createUser();
    const { secret } = await enrol(portal, token);
    const home = newAddress();
    vi.setSystemTime(T0 + 30_000);
    const first = await pendingSignIn(portal, email, USER_PASSWORD, { from: home });
    const done = await sendCode(portal, first.token, totpCode(secret, Date.now()), { from: home });
    expect(done.status).toBe(200);
    const cookie = deviceCookieOf(done);
    expect(cookie).toBeDefined();
    return { email, secret, home, cookie };
  }

  it("lets the owner's known browser finish while an attacker has banned the email; without it 429", async () => {
    const { email, secret, home, cookie } = await knownBrowser();
    await wrongPasswords(portal, email, 5);
    vi.setSystemTime(T0 + 60_000);
    const again = await pendingSignIn(portal, email, USER_PASSWORD, { from: home, cookie });
    const owner = await sendCode(portal, again.token, totpCode(secret, Date.now()), { from: home, cookie });
    expect(owner.status).toBe(200);
    // The code of a pending sign-in without the cookie counts against the banned email.
    vi.setSystemTime(T0 + 90_000);
    const third = await pendingSignIn(portal, email, USER_PASSWORD, { from: home, cookie: deviceCookieOf(owner) });
    expect((await sendCode(portal, third.token, totpCode(secret, Date.now()), { from: home })).status).toBe(429);
  });

  it('wrong codes from a known browser are limited per device, and leave the email alone', async () => {
    const { email, home, cookie } = await knownBrowser();
    const pending = await pendingSignIn(portal, email, USER_PASSWORD, { from: home, cookie });
    for (let wrong = 0; wrong < 4; wrong++) expect((await sendCode(portal, pending.token, 'aaaaa-bbbbb', { from: home, cookie })).status).toBe(401);
    const next = await pendingSignIn(portal, email, USER_PASSWORD, { from: home, cookie });
    expect((await sendCode(portal, next.token, '000000', { from: home, cookie })).status).toBe(401);
    expect((await sendCode(portal, next.token, '000000', { from: home, cookie })).status).toBe(429);
    // Elsewhere the email still gets to its code step.
    expect((await pendingSignIn(portal, email, USER_PASSWORD, { from: newAddress() })).token).toBeDefined();
  });

  it('a browser that passed only the password is no known device: its wrong codes count against the email', async () => {
    const { token, email } = await portal.createUser();
    await enrol(portal, token);
    const attacker = newAddress();
    const pending = await pendingSignIn(portal, email, USER_PASSWORD, { from: attacker });
    expect(pending.cookie).toBeUndefined();
    for (let wrong = 0; wrong < 4; wrong++) expect((await sendCode(portal, pending.token, '000000', { from: attacker })).status).toBe(401);
    const next = await pendingSignIn(portal, email, USER_PASSWORD, { from: attacker });
    expect((await sendCode(portal, next.token, '000000', { from: attacker })).status).toBe(401);
    const banned = await call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: USER_PASSWORD }, from: newAddress() });
    expect(banned.status).toBe(429);
  });
});

describe('wrong codes on two instances sharing a database', () => {
  const { a, b } = useTwoPortals({ TRUST_PROXY: 'true', LOGIN_FAILURES_PER_ADDRESS: String(ADDRESS_LIMIT) });

  /** Sends every code at once from one address, alternating between A and B; answers the statuses. */
  async function burst(from: string, codes: { token: string; code: string }[]): Promise<number[]> {
    return Promise.all(
      codes.map(async ({ token, code }, index) => {
        const answer = await sendCode(index % 2 === 0 ? a : b, token, code, { from });
        await answer.arrayBuffer();
        if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        return answer.status;
      }),
    );
  }

  const checkedFrom = async (from: string) => Number((await a.deps.db('auth_log').where({ ip: from, type: 'mfa.failure' }).count({ n: '*' }))[0].n);

  it(`${BURST} concurrent wrong codes for one pending sign-in check at most LOGIN_FAILURES_PER_EMAIL`, async () => {
    const { token, email } = await a.createUser();
    await enrol(a, token);
    const pending = await pendingSignIn(b, email, USER_PASSWORD, { from: newAddress() });
    const from = newAddress();
    const statuses = await burst(
      from,
      Array.from({ length: BURST }, (_, index) => ({ token: pending.token, code: index % 2 ? '000000' : 'aaaaa-bbbbb' })),
    );
    // 401 for a checked code or a pending sign-in voided meanwhile; the rest 429 before any check.
    for (const status of statuses) expect([401, 429]).toContain(status);
    expect(await checkedFrom(from)).toBeLessThanOrEqual(5);
  });

  it(`${BURST} concurrent wrong codes from one address over 10 accounts check at most LOGIN_FAILURES_PER_ADDRESS`, async () => {
    const accounts = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const { token, email } = await a.createUser();
        const { secret } = await enrol(a, token);
        return { email, secret, pending: await pendingSignIn(b, email, USER_PASSWORD, { from: newAddress() }) };
      }),
    );
    const from = newAddress();
    // Per email alone, 10 accounts × 5 codes could be checked.
    const codes = Array.from({ length: BURST }, (_, index) => ({ token: accounts[index % 10]!.pending.token, code: index % 3 ? '000000' : 'aaaaa-bbbbb' }));
    const statuses = await burst(from, codes);
    for (const status of statuses) expect([401, 429]).toContain(status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(await checkedFrom(from)).toBeLessThanOrEqual(ADDRESS_LIMIT);
    // The address is banned now: a right code from it for an untouched account is refused too.
    const { token, email } = await a.createUser();
    const { secret } = await enrol(a, token);
    const fresh = await pendingSignIn(a, email, USER_PASSWORD, { from: newAddress() });
    expect((await sendCode(b, fresh.token, totpCode(secret, Date.now()), { from })).status).toBe(429);
  });
});
