/**
 * Issue 12, point 4: anonymous traffic must not grow the event log (or the table of Google
 * sign-ins under way) without bound. Repeated identical anonymous `/verify` denials within a
 * minute are one row with a count, on one instance and across two sharing a database; Google
 * sign-in starts are limited per address, and the sign-ins under way are capped and swept; so are
 * the challenges of passkey sign-ins, which anyone may ask for.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHALLENGE_MS } from '../src/services/sign-in/passkeys.js';
import { addPasskey, call, json, type Options } from './support/passkey-ceremony.js';
import { startTestProvider, type TestProvider } from './support/google-issuer.js';
import { createApp, startTestPortal, unique, useTestPortal, useTwoPortals, type TestPortal } from './support/support.js';

const DENIALS = 2000;
const PARALLEL = 50;

interface Row {
  event: string;
  count: number;
  ip: string;
}

async function rowsOf(portal: TestPortal, event: string): Promise<Row[]> {
  const rows: Row[] = await portal.deps.db('auth_log').where({ event }).select('event', 'count', 'ip');
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** Sends `total` anonymous denials, `PARALLEL` at a time, spread over the given portals. */
async function deny(portals: TestPortal[], path: string, total: number, headers: Record<string, string> = {}): Promise<void> {
  let sent = 0;
  while (sent < total) {
    const batch = Math.min(PARALLEL, total - sent);
    const answers = await Promise.all(
      Array.from({ length: batch }, (_, index) => portals[(sent + index) % portals.length].fetch(path, { headers, redirect: 'manual' })),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      await answer.arrayBuffer();
    }
    sent += batch;
  }
}

const sum = (rows: Row[]) => rows.reduce((total, row) => total + row.count, 0);
// Identical denials share a row per minute: a run that crosses a minute's end makes one more.
const HANDFUL = 5;

describe('anonymous /verify denials', () => {
  const portal = useTestPortal({ TRUST_PROXY: 'true' });

  it(`collapse: ${DENIALS} concurrent identical denials are a handful of rows whose counts sum to ${DENIALS}`, async () => {
    const app = await createApp(portal.admin);
    await deny([portal], `/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, DENIALS, { 'x-forwarded-for': '203.0.113.7' });
    const rows = await rowsOf(portal, `forward auth denied: not logged in, for app ${app.name}`);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(HANDFUL);
    expect(sum(rows)).toBe(DENIALS);
    expect(rows.every((row) => row.ip === '203.0.113.7')).toBe(true);

    // The log API shows the count.
    const entries = await portal.admin.logs.page(1, 100);
    const shown = entries.filter((entry) => entry.event === `forward auth denied: not logged in, for app ${app.name}`);
    expect(shown.reduce((total, entry) => total + entry.count, 0)).toBe(DENIALS);
    expect(entries.filter((entry) => !shown.includes(entry)).every((entry) => entry.count === 1)).toBe(true);
  }, 120_000);

  it('keep addresses, apps and reasons apart', async () => {
    const [first, second] = [await createApp(portal.admin), await createApp(portal.admin)];
    const send = (app: string, ip: string) =>
      portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(app)}`, { headers: { 'x-forwarded-for': ip } }).then((answer) => answer.status);
    for (let round = 0; round < 3; round++) {
      expect(await send(first.name, '198.51.100.1')).toBe(401);
      expect(await send(first.name, '198.51.100.2')).toBe(401);
      expect(await send(second.name, '198.51.100.1')).toBe(401);
    }
    const firstRows = await rowsOf(portal, `forward auth denied: not logged in, for app ${first.name}`);
    expect(firstRows.filter((row) => row.ip === '198.51.100.1').map((row) => row.count)).toEqual([3]);
    expect(firstRows.filter((row) => row.ip === '198.51.100.2').map((row) => row.count)).toEqual([3]);
    expect((await rowsOf(portal, `forward auth denied: not logged in, for app ${second.name}`)).map((row) => row.count)).toEqual([3]);

    // A logged-in user's identical denials collapse too, whatever the address (signed-in-refusals.test.ts).
    const { token } = await portal.createUser();
    for (let round = 0; round < 3; round++) {
      const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': `198.51.100.${10 + round}` };
      expect((await portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(first.name)}`, { headers })).status).toBe(403);
    }
    const userRows: Row[] = await portal.deps.db('auth_log').where('event', 'like', `%may not use app ${first.name}`).select('event', 'count', 'ip');
    expect(userRows.map((row) => [Number(row.count), row.ip])).toEqual([[3, '198.51.100.10']]);
  });

  it('do not grow the log when the caller varies the URL or the app name it asks for', async () => {
    const before = Number((await portal.deps.db('auth_log').count({ total: '*' }).first())?.total);
    const ip = '192.0.2.99';
    for (let index = 0; index < 100; index++) {
      const path = index % 2 === 0 ? `/api/auth/v1/verify?app=${unique('nonexistent')}` : '/api/auth/v1/verify';
      const headers: Record<string, string> = { 'x-forwarded-for': ip, 'x-original-url': `https://nowhere-${index}.example.net/x/${index}` };
      const answer = await portal.fetch(path, { headers, redirect: 'manual' });
      expect(answer.status).toBe(401);
    }
    const after = Number((await portal.deps.db('auth_log').count({ total: '*' }).first())?.total);
    expect(after - before).toBeLessThanOrEqual(HANDFUL);
    const rows = await rowsOf(portal, 'forward auth denied: not logged in, for no registered app');
    expect(sum(rows.filter((row) => row.ip === ip))).toBe(100);

    // Ambiguous original URLs too: an anonymous caller's denials name the reason, not the URL.
    const ambiguousIp = '192.0.2.100';
    for (let index = 0; index < 30; index++) {
      const headers = { 'x-forwarded-for': ambiguousIp, 'x-original-url': `https://nowhere.example.net/a/..%2f${index}/secret` };
      const answer = await portal.fetch('/api/auth/v1/verify', { headers, redirect: 'manual' });
      expect(answer.status).toBe(400);
      await answer.arrayBuffer();
    }
    const ambiguous: Row[] = await portal.deps.db('auth_log').where({ ip: ambiguousIp }).select('event', 'count', 'ip');
    expect(ambiguous.length).toBeLessThanOrEqual(2);
    expect(ambiguous.reduce((total, row) => total + Number(row.count), 0)).toBe(30);
  });
});

describe('anonymous /verify denials on two instances sharing a database', () => {
  const { a, b } = useTwoPortals({ TRUST_PROXY: 'true' });

  it(`lose no count and make no duplicate rows: ${DENIALS} denials over both`, async () => {
    const app = await createApp(a.admin);
    await deny([a, b], `/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, DENIALS, { 'x-forwarded-for': '203.0.113.8' });
    const rows = await rowsOf(a, `forward auth denied: not logged in, for app ${app.name}`);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(HANDFUL);
    expect(sum(rows)).toBe(DENIALS);
  }, 120_000);
});

describe('Google sign-in starts', () => {
  const LIMIT = 5;
  let idp: TestProvider;
  let portal: TestPortal;
  beforeAll(async () => {
    idp = await startTestProvider();
    portal = await startTestPortal({
      GOOGLE_CLIENT_ID: idp.clientId,
      GOOGLE_CLIENT_SECRET: idp.clientSecret,
      OIDC_ISSUER: idp.issuer,
      TRUST_PROXY: 'true',
      GOOGLE_STARTS_PER_ADDRESS: String(LIMIT),
      GOOGLE_PENDING_MAX: '12',
    });
    idp.allowRedirectUri(`${portal.url}/auth/google/callback`);
  });
  afterAll(async () => {
    await portal?.close();
    await idp?.close();
  });

  const start = async (ip: string) => {
    const answer = await portal.fetch('/auth/google', { headers: { 'x-forwarded-for': ip }, redirect: 'manual' });
    expect(answer.status).toBe(302);
    return answer.headers.get('location') ?? '';
  };
  const FAILED_LOGIN = '/auth/#/failedlogin';
  const REFUSED = 'Google sign-in refused: too many sign-ins started from this address';

  it('are limited per address: past the limit the browser goes to Failed Login, and one row is logged', async () => {
    const ip = '203.0.113.21';
    const answers = await Promise.all(Array.from({ length: 40 }, () => start(ip)));
    expect(answers.filter((location) => location.startsWith(idp.issuer))).toHaveLength(LIMIT);
    expect(answers.filter((location) => location === FAILED_LOGIN)).toHaveLength(40 - LIMIT);
    const rows = (await rowsOf(portal, REFUSED)).filter((row) => row.ip === ip);
    expect(rows).toHaveLength(1);
    expect(rows[0].count).toBe(40 - LIMIT);
    // Another address is not held back by this one.
    expect(await start('203.0.113.22')).toMatch(new RegExp(`^${idp.issuer}/`));
  });

  it('keep at most GOOGLE_PENDING_MAX sign-ins under way, the oldest dropped, and sweep expired ones', async () => {
    for (let index = 0; index < 30; index++) expect(await start(`198.51.100.${100 + index}`)).toMatch(new RegExp(`^${idp.issuer}/`));
    const { total } = (await portal.deps.db('oidc_logins').count({ total: '*' }).first()) as { total: number | string };
    expect(Number(total)).toBeLessThanOrEqual(12);

    await portal.deps.db('oidc_logins').update({ expires_at: Date.now() - 1 });
    await start('198.51.100.250');
    const { left } = (await portal.deps.db('oidc_logins').count({ left: '*' }).first()) as { left: number | string };
    expect(Number(left)).toBe(1);
  });

  it('when Google is not configured, repeated refusals are one row with a count', async () => {
    const plain = await startTestPortal({ TRUST_PROXY: 'true' });
    try {
      for (let index = 0; index < 30; index++) {
        const answer = await plain.fetch('/auth/google', { headers: { 'x-forwarded-for': '192.0.2.5' }, redirect: 'manual' });
        expect(answer.headers.get('location')).toBe(FAILED_LOGIN);
      }
      const rows = await rowsOf(plain, 'Google sign-in refused: Google sign-in is not configured');
      expect(rows.length).toBeLessThanOrEqual(2);
      expect(sum(rows)).toBe(30);
    } finally {
      await plain.close();
    }
  });
});

describe('passkey sign-in challenges', () => {
  const PER_ADDRESS = 20;
  const MAX = 60;
  const { a, b } = useTwoPortals({ TRUST_PROXY: 'true', PASSKEY_CHALLENGES_PER_ADDRESS: String(PER_ADDRESS), PASSKEY_CHALLENGES_MAX: String(MAX) });
  afterEach(() => {
    vi.useRealTimers();
  });

  const ask = (portal: TestPortal, from: string) => call(portal, 'POST', '/passkey/options', { body: {}, from });

  /** Asks `total` times, `PARALLEL` at a time, alternating between A and B, from the addresses given; answers the statuses. */
  async function flood(total: number, from: (index: number) => string): Promise<number[]> {
    const statuses: number[] = [];
    for (let sent = 0; sent < total; sent += PARALLEL) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(PARALLEL, total - sent) }, async (_, index) => {
          const answer = await ask((sent + index) % 2 === 0 ? a : b, from(sent + index));
          await answer.arrayBuffer();
          if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          return answer.status;
        }),
      );
      statuses.push(...answers);
    }
    return statuses;
  }

  const held = async () => Number(((await a.deps.db('webauthn_challenges').count({ n: '*' }).first()) as { n: number | string }).n);

  it('1,000 calls from one address over two instances leave at most PASSKEY_CHALLENGES_PER_ADDRESS; the rest answer 429', async () => {
    const ip = '203.0.113.61';
    const statuses = await flood(1000, () => ip);
    for (const status of statuses) expect([200, 429]).toContain(status);
    const given = statuses.filter((status) => status === 200).length;
    expect(given).toBeGreaterThan(0);
    expect(given).toBeLessThanOrEqual(PER_ADDRESS);
    // Refused calls store nothing, and are logged as one counted row for the address and window.
    expect(await held()).toBe(given);
    const blocked = await a.deps.db('auth_log').where({ type: 'login.blocked', ip }).select('event', 'count');
    expect(blocked).toEqual([{ event: 'passkey sign-in blocked: too many started from this address', count: 1000 - given }]);
    // Another address is not held back by this one.
    expect((await ask(a, '203.0.113.62')).status).toBe(200);
  });

  it('calls from many addresses stop at PASSKEY_CHALLENGES_MAX, the oldest dropped; expired ones are swept', async () => {
    const statuses = await flood(400, (index) => `198.51.100.${index % 200}`);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await held()).toBeLessThanOrEqual(MAX);
    await a.deps.db('webauthn_challenges').update({ expires_at: Date.now() - 1 });
    expect((await ask(b, '198.51.100.250')).status).toBe(200);
    expect(await held()).toBe(1);
  });

  it('the real passkey sign-in from the flooding address works again once its challenges expire (fixed clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const T0 = Date.now();
    vi.setSystemTime(T0);
    const user = await a.createUser();
    const { authenticator } = await addPasskey(a, user.token);
    const home = '203.0.113.70';
    const before = await held();
    await flood(200, () => home);
    expect((await held()) - before).toBeLessThanOrEqual(PER_ADDRESS);
    expect((await ask(a, home)).status).toBe(429);
    vi.setSystemTime(T0 + CHALLENGE_MS + 1000);
    const options = await json<Options>(await ask(a, home), 200);
    const signedIn = await call(a, 'POST', '/validatepasskey', { body: { response: authenticator.assert(options) }, from: home });
    expect((await json<{ accesstoken: string }>(signedIn, 200)).accesstoken).toBeTruthy();
  });
});
