/**
 * Issue 25, point 11: signed-in callers must not flood the event log. Identical refusals (same
 * user or API key, same app, same reason) within a minute are one row with a count, for forward
 * auth, the OpenID provider and the other repeated refusals; the first is written at once, naming
 * the user; URLs in entries are cut to 512 characters (docs/event-log.md, docs/security.md).
 */
import { generateApiKey, type App } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { Browser, relyingParty } from './support/openid-rp.js';
import { createApp, failure, useTestPortal, useTwoPortals, type TestPortal } from './support/support.js';

const DENIALS = 2000;
const PARALLEL = 50;
// Identical refusals share a row per minute: a run that crosses a minute's end makes one more.
const HANDFUL = 5;

interface Row {
  user: string;
  actor: string;
  event: string;
  count: number;
}

async function rowsOf(portal: TestPortal, where: { user: string; type?: string; event?: string }): Promise<Row[]> {
  const rows: Row[] = await portal.deps.db('auth_log').where(where).orderBy('id').select('user', 'actor', 'event', 'count');
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

const sum = (rows: Row[]) => rows.reduce((total, row) => total + row.count, 0);

const verify = (portal: TestPortal, token: string, query: string, headers: Record<string, string> = {}) =>
  portal.fetch(`/api/auth/v1/verify${query}`, { headers: { authorization: `Bearer ${token}`, ...headers }, redirect: 'manual' });

/** Sends `total` refused `/verify` calls, `PARALLEL` at a time, spread over the given portals. */
async function deny(portals: TestPortal[], token: string, query: string, total: number): Promise<void> {
  let sent = 0;
  while (sent < total) {
    const batch = Math.min(PARALLEL, total - sent);
    const answers = await Promise.all(Array.from({ length: batch }, (_, index) => verify(portals[(sent + index) % portals.length], token, query)));
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      await answer.arrayBuffer();
    }
    sent += batch;
  }
}

/** A user without a grant for a new app; its first refusal is logged at once, naming the user. */
async function refusedUser(portal: TestPortal): Promise<{ app: App; token: string; email: string }> {
  const app = await createApp(portal.admin);
  const { token, email } = await portal.createUser();
  const first = await verify(portal, token, `?app=${encodeURIComponent(app.name)}`);
  expect(first.status).toBe(403);
  expect(await rowsOf(portal, { user: email, type: 'verify.denied' })).toEqual([
    { user: email, actor: email, event: `forward auth denied: ${email} may not use app ${app.name}`, count: 1 },
  ]);
  return { app, token, email };
}

describe('signed-in /verify refusals', () => {
  const portal = useTestPortal();

  it(`collapse: ${DENIALS} concurrent refusals of one user are a handful of rows whose counts sum to ${DENIALS}`, async () => {
    const { app, token, email } = await refusedUser(portal);
    await deny([portal], token, `?app=${encodeURIComponent(app.name)}`, DENIALS - 1);
    const rows = await rowsOf(portal, { user: email, type: 'verify.denied' });
    expect(rows.length).toBeLessThanOrEqual(HANDFUL);
    expect(sum(rows)).toBe(DENIALS);
    expect(rows.every((row) => row.event === `forward auth denied: ${email} may not use app ${app.name}` && row.actor === email)).toBe(true);
    // The log API shows the count.
    const shown = (await portal.admin.logs.page(1, 100)).filter((entry) => entry.user === email && entry.type === 'verify.denied');
    expect(shown.reduce((total, entry) => total + entry.count, 0)).toBe(DENIALS);
  }, 120_000);

  it("keep users, API keys, apps and reasons apart; an API key's refusals collapse too", async () => {
    const [first, second] = [await createApp(portal.admin), await createApp(portal.admin)];
    const ann = await portal.createUser();
    const bob = await portal.createUser();
    const key = generateApiKey();
    await ann.api.accessTokens.create(key);
    for (let round = 0; round < 3; round++) {
      for (const [token, app] of [
        [ann.token, first],
        [ann.token, second],
        [bob.token, first],
        [key, first],
      ] as const) {
        expect((await verify(portal, token, `?app=${encodeURIComponent(app.name)}`)).status).toBe(403);
      }
    }
    const annRows = await rowsOf(portal, { user: ann.email, type: 'verify.denied' });
    expect(annRows.filter((row) => row.event.endsWith(`may not use app ${first.name}`)).map((row) => row.count)).toEqual([3, 3]); // session and key
    expect(annRows.filter((row) => row.event.endsWith(`may not use app ${second.name}`)).map((row) => row.count)).toEqual([3]);
    expect((await rowsOf(portal, { user: bob.email, type: 'verify.denied' })).map((row) => row.count)).toEqual([3]);
  });

  it('do not grow the log when a signed-in caller varies the URL or app name; URLs in entries are cut to 512 characters', async () => {
    const { token, email } = await portal.createUser();
    const long = `https://nowhere.example.net/${'a'.repeat(1500)}`;
    for (let index = 0; index < 40; index++) {
      const answer =
        index % 2 === 0 ? await verify(portal, token, '', { 'x-original-url': `${long}/${index}` }) : await verify(portal, token, `?app=no-such-app-${index}`);
      expect(answer.status).toBe(403);
    }
    // Ambiguous original URLs too: one row per reason, whatever the URL.
    for (let index = 0; index < 20; index++) {
      const answer = await verify(portal, token, '', { 'x-original-url': `https://nowhere.example.net/a/..%2f${index}/${'b'.repeat(1500)}` });
      expect(answer.status).toBe(400);
    }
    const rows = await rowsOf(portal, { user: email, type: 'verify.denied' });
    expect(rows.length).toBeLessThanOrEqual(2 * 2);
    expect(sum(rows)).toBe(60);
    const noApp = rows.filter((row) => row.event.startsWith('forward auth denied: no registered app for '));
    expect(sum(noApp)).toBe(40);
    const first = noApp[0].event;
    // The first occurrence's URL, cut to 512 characters.
    const url = first.slice(first.indexOf('https://'));
    expect(url.length).toBe(512);
    expect(long.startsWith(url.slice(0, -1))).toBe(true);
    const ambiguous = rows.find((row) => row.event.startsWith('forward auth denied: ambiguous original URL'))!;
    expect(ambiguous.event.slice(ambiguous.event.indexOf('https://'))).toHaveLength(512);
    for (const row of rows) {
      for (const found of row.event.match(/https?:\/\/\S*/g) ?? []) expect(found.length).toBeLessThanOrEqual(512);
    }
  });
});

describe('signed-in /verify refusals on two instances sharing a database', () => {
  const { a, b } = useTwoPortals();

  it(`lose no count and make no duplicate rows: ${DENIALS} refusals over both`, async () => {
    const { app, token, email } = await refusedUser(a);
    await deny([a, b], token, `?app=${encodeURIComponent(app.name)}`, DENIALS - 1);
    const rows = await rowsOf(a, { user: email, type: 'verify.denied' });
    expect(rows.length).toBeLessThanOrEqual(HANDFUL);
    expect(sum(rows)).toBe(DENIALS);
  }, 120_000);
});

describe('other repeated refusals of signed-in callers', () => {
  const portal = useTestPortal();
  const REDIRECT = 'http://127.0.0.1:9/callback';

  it('the OpenID provider: a user without the grant sent back with access_denied is one row with a count', async () => {
    const app = await createApp(portal.admin);
    const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT], public: false });
    const rp = await relyingParty(portal.url, app.name, created.client_secret, REDIRECT);
    const { token, email } = await portal.createUser();
    for (let round = 0; round < 5; round++) {
      const browser = new Browser(portal.url);
      browser.cookies.set('accesstoken', token);
      const { url } = await browser.navigate((await rp.start()).url);
      expect(new URL(url).searchParams.get('error')).toBe('access_denied');
      if (round === 0) {
        // The first is written at once, naming the user.
        expect((await rowsOf(portal, { user: email, type: 'oidc.denied' })).map((row) => [row.actor, row.count])).toEqual([[email, 1]]);
      }
    }
    const rows = await rowsOf(portal, { user: email, type: 'oidc.denied' });
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(sum(rows)).toBe(5);
    expect(rows[0].event).toBe(`${email} may not use app ${app.name} (OpenID Connect): access denied`);
  });

  it('a password change refused for a wrong current password is one row with a count', async () => {
    const { api, email } = await portal.createUser();
    for (let round = 0; round < 3; round++) {
      expect(await failure(api.account.changePassword('not the password', 'a brand new password'))).toMatchObject({ code: 'unauthenticated' });
    }
    const rows = await rowsOf(portal, { user: email, event: 'password change refused: wrong current password' });
    expect(rows.length).toBeLessThanOrEqual(2);
    expect(sum(rows)).toBe(3);
  });
});
