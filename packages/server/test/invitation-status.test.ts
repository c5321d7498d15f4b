/**
 * `POST /registrationtoken/status` (docs/api.md): whether an invitation can still be used, asked by
 * the registration screen before it asks for a password. Public, says open, used, expired or
 * unknown and nothing else, and answers an address only so often.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, json } from './support/passkey-ceremony.js';
import { unique, USER_PASSWORD, useTestPortal, type TestPortal } from './support/support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const statusOf = async (portal: TestPortal, Token: unknown, from?: string) =>
  json<{ status: string }>(await call(portal, 'POST', '/registrationtoken/status', { body: { Token }, from }), 200);

async function invite(portal: TestPortal) {
  const client = await portal.admin.clients.create(unique('client'));
  return portal.admin.invites.create({ email: `${unique('inv')}@example.com`, clientid: client.id, apps: [] });
}

describe('POST /registrationtoken/status', () => {
  const portal = useTestPortal({ TRUST_PROXY: 'true', TOKEN_CHECKS_PER_ADDRESS: '4' });
  afterEach(() => {
    vi.useRealTimers();
  });
  let address = 0;
  // Each test asks from an address of its own, so that the limit is the one test's.
  const from = () => `198.51.100.${++address}`;

  it('open, then used once registered; unknown for a token that is no invitation; nothing else in the answer', async () => {
    const ip = from();
    const open = await invite(portal);
    expect(await statusOf(portal, open.token, ip)).toStrictEqual({ status: 'open' });
    await portal.anonymous.auth.register({ Token: open.token, Password: USER_PASSWORD });
    expect(await statusOf(portal, open.token, ip)).toStrictEqual({ status: 'used' });
    expect(await statusOf(portal, `${open.token}x`, ip)).toStrictEqual({ status: 'unknown' });
  });

  it('expired once INVITE_TTL_DAYS have passed (7 by default)', async () => {
    const ip = from();
    const created = await invite(portal);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 7 * DAY_MS - 60_000);
    expect(await statusOf(portal, created.token, ip)).toStrictEqual({ status: 'open' });
    vi.setSystemTime(Date.now() + 120_000);
    expect(await statusOf(portal, created.token, ip)).toStrictEqual({ status: 'expired' });
  });

  it('answers a signed-in caller alike (public: no session needed, none used)', async () => {
    const created = await invite(portal);
    const response = await portal.fetch('/api/auth/v1/registrationtoken/status', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${await portal.login('admin@example.com', 'steady-kettle-4821')}`,
        'x-forwarded-for': from(),
      },
      body: JSON.stringify({ Token: created.token }),
    });
    expect(await json(response, 200)).toStrictEqual({ status: 'open' });
  });

  it('refuses bad input with a 400 naming Token', async () => {
    const ip = from();
    for (const body of [{}, { Token: '' }, { Token: 42 }, { Token: 'x'.repeat(513) }, { Token: 'a\u0000b' }]) {
      const response = await call(portal, 'POST', '/registrationtoken/status', { body, from: ip });
      const answer = await json<{ error: { details: { field: string } } }>(response, 400);
      expect(answer.error.details.field, JSON.stringify(body)).toBe('Token');
    }
  });

  it('answers one address TOKEN_CHECKS_PER_ADDRESS times per 10 minutes, then 429 with Retry-After; other addresses go on', async () => {
    const ip = from();
    const created = await invite(portal);
    for (let i = 0; i < 4; i++) await statusOf(portal, created.token, ip);
    const refused = await call(portal, 'POST', '/registrationtoken/status', { body: { Token: created.token }, from: ip });
    const answer = await json<{ error: { code: string; message: string } }>(refused, 429);
    expect(answer.error.code).toBe('too_many_requests');
    expect(answer.error.message).toMatch(/^too many invitation checks from this address; try again in \d+ minutes$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await statusOf(portal, created.token, from())).toStrictEqual({ status: 'open' });
  });

  it('ten concurrent checks from one address: exactly four answered', async () => {
    const ip = from();
    const created = await invite(portal);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => (await call(portal, 'POST', '/registrationtoken/status', { body: { Token: created.token }, from: ip })).status),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });
});
