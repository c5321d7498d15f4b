/**
 * Access reviews and last use (docs/reviews.md): items snapshot the grants at the start; owners
 * decide only their apps' items; "remove" takes effect at the close or at once; a grant revoked,
 * granted anew or changed meanwhile; whenMissed both ways at due on a fixed clock; the mails; the
 * evidence export; last use recorded by forward auth and shown where grants are.
 */
import type { App, ReviewItem } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { runReviewJob } from '../src/services/reviews/review-close.js';
import { Browser, relyingParty } from './support/openid-rp.js';
import { useMailedPortal } from './support/smtp.js';
import { ADMIN_EMAIL, becomesTrue, failure, unique, type TestUser } from './support/support.js';

const { portal, smtp } = useMailedPortal();

const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

function verify(app: App, token: string) {
  return portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, { headers: { cookie: `accesstoken=${token}` }, redirect: 'manual' });
}

async function logEntries(type: string) {
  return portal.admin.logs.page(1, 100, { type });
}

interface World {
  app: App;
  otherApp: App;
  owner: TestUser;
  otherOwner: TestUser;
  alice: TestUser;
  bob: TestUser;
  team: { id: number; name: string };
}

async function world(): Promise<World> {
  const [owner, otherOwner, alice, bob] = await Promise.all([portal.createUser(), portal.createUser(), portal.createUser(), portal.createUser()]);
  const team = await portal.admin.teams.create({ name: unique('Team') });
  const app = await portal.admin.apps.create({
    name: unique('reviewed'),
    url: `https://${unique('reviewed')}.example.com/`,
    roles: ['viewer', 'editor'],
    owners: { users: [owner.user.id], teams: [] },
  });
  const otherApp = await portal.admin.apps.create({
    name: unique('other'),
    url: `https://${unique('other')}.example.com/`,
    owners: { users: [otherOwner.user.id], teams: [] },
  });
  await portal.admin.users.grant(alice.user.id, app.id, { role: 'editor' });
  await portal.admin.users.grant(bob.user.id, app.id);
  await portal.admin.teams.grant(team.id, { appid: app.id });
  await portal.admin.users.grant(alice.user.id, otherApp.id);
  return { app, otherApp, owner, otherOwner, alice, bob, team };
}

const itemOf = (items: ReviewItem[], grantee: string) => items.find((item) => (item.user?.email ?? item.team?.name) === grantee)!;

describe('last use', () => {
  it("is recorded by forward auth, written in a batch, and shown in the access list and the user's apps", async () => {
    const { app, alice, bob } = await world();
    expect((await verify(app, alice.token)).status).toBe(200);
    expect((await verify(app, alice.token)).status).toBe(200);
    await portal.deps.lastUse.flush(portal.deps.db);
    const access = await portal.admin.apps.access(app.id);
    const aliceUse = access.find((entry) => entry.id === alice.user.id)!.lastUsed;
    expect(Date.now() - Date.parse(aliceUse!)).toBeLessThan(60_000);
    expect(access.find((entry) => entry.id === bob.user.id)!.lastUsed).toBeUndefined();
    expect((await portal.admin.users.apps(alice.user.id)).find((granted) => granted.id === app.id)!.lastUsed).toBe(aliceUse);
    // Within the hour, a further use is not written again.
    expect((await verify(app, alice.token)).status).toBe(200);
    expect(portal.deps.lastUse.waiting).toBe(0);
  });
});

describe('last use by OpenID sign-in', () => {
  it('is recorded when the portal issues a code to the app', async () => {
    const redirect = 'http://127.0.0.1:9/callback';
    const { app, alice } = await world();
    const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: [redirect], public: false, id_token_signed_response_alg: 'RS256' });
    const rp = await relyingParty(portal.url, app.name, created.client_secret, redirect);
    const browser = new Browser(portal.url);
    browser.cookies.set('accesstoken', alice.token);
    const { url } = await browser.navigate((await rp.start()).url);
    expect(url.startsWith(redirect), url).toBe(true);
    await portal.deps.lastUse.flush(portal.deps.db);
    const access = await portal.admin.apps.access(app.id);
    expect(access.find((entry) => entry.id === alice.user.id)!.lastUsed).toBeDefined();
  });
});

describe('starting a review', () => {
  it('makes every current grant of the apps an item, to users and teams, with role, source, granter and last use', async () => {
    const { app, alice, bob, team } = await world();
    const review = await portal.admin.reviews.start({ name: unique('Q4'), apps: [app.id], reviewers: 'owners', due: inDays(10), whenMissed: 'keep' });
    expect(review).toMatchObject({ status: 'open', reviewers: 'owners', whenMissed: 'keep', apps: [{ id: app.id, name: app.name }], startedBy: ADMIN_EMAIL });
    expect(review.progress).toEqual({ items: 3, decided: 0, keep: 0, remove: 0 });
    const items = await portal.admin.reviews.items(review.id);
    expect(itemOf(items, alice.user.email)).toMatchObject({ kind: 'user', source: 'direct', role: 'editor', grantedBy: ADMIN_EMAIL, app: { id: app.id } });
    expect(itemOf(items, bob.user.email)).toMatchObject({ role: 'viewer' });
    expect(itemOf(items, team.name)).toMatchObject({ kind: 'team', source: team.name, team: { id: team.id } });
    expect(itemOf(items, alice.user.email).granted).toBeDefined();
    expect((await logEntries('review.start'))[0].event).toContain(review.name);
  });

  it('refuses bad input with the field, a past due, apps an owner does not own, and plain users', async () => {
    const { app, otherApp, owner, alice } = await world();
    const good = { name: 'x', apps: [app.id], reviewers: 'owners' as const, due: inDays(5), whenMissed: 'keep' as const };
    expect(await failure(portal.admin.reviews.start({ ...good, name: ' ' }))).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(await failure(portal.admin.reviews.start({ ...good, due: inDays(-1) }))).toMatchObject({ code: 'invalid_input', field: 'due' });
    expect(await failure(portal.admin.reviews.start({ ...good, apps: [] }))).toMatchObject({ field: 'apps' });
    expect(await failure(portal.admin.reviews.start({ ...good, apps: [999999] }))).toMatchObject({ field: 'apps' });
    expect(await failure(portal.admin.reviews.start({ ...good, whenMissed: 'maybe' as never }))).toMatchObject({ field: 'whenMissed' });
    expect(await failure(owner.api.reviews.start({ ...good, apps: [otherApp.id] }))).toMatchObject({ code: 'forbidden' });
    expect(await failure(alice.api.reviews.start(good))).toMatchObject({ code: 'forbidden' });
    expect(await failure(alice.api.reviews.list())).toMatchObject({ code: 'forbidden' });
    const mine = await owner.api.reviews.start({ ...good, apps: 'all' });
    expect(mine.apps).toEqual([{ id: app.id, name: app.name }]);
  });
});

describe('deciding', () => {
  it('lets an owner decide only items of apps they own; admins decide any', async () => {
    const { app, otherApp, owner, otherOwner, alice, bob } = await world();
    const review = await portal.admin.reviews.start({
      name: unique('both'),
      apps: [app.id, otherApp.id],
      reviewers: 'owners',
      due: inDays(10),
      whenMissed: 'keep',
    });
    const all = await portal.admin.reviews.items(review.id);
    const theirs = all.find((item) => item.app.id === otherApp.id)!;
    const mine = await owner.api.reviews.items(review.id);
    expect(mine.every((item) => item.app.id === app.id)).toBe(true);
    expect(mine).toHaveLength(3);
    expect((await owner.api.reviews.get(review.id)).waiting).toBe(3);
    expect(await failure(owner.api.reviews.decide(review.id, theirs.id, { decision: 'remove' }))).toMatchObject({ code: 'forbidden' });
    // All or none: one foreign item fails the whole bulk decision.
    const bulk = [itemOf(mine, alice.user.email).id, theirs.id];
    expect(await failure(owner.api.reviews.decideMany(review.id, { items: bulk, decision: 'keep' }))).toMatchObject({ code: 'forbidden' });
    expect((await owner.api.reviews.items(review.id, { decided: true })).length).toBe(0);
    await otherOwner.api.reviews.decide(review.id, theirs.id, { decision: 'keep', comment: 'needed' });
    const decided = await owner.api.reviews.decideMany(review.id, { items: [itemOf(mine, bob.user.email).id], decision: 'remove', comment: 'left' });
    expect(decided[0]).toMatchObject({ decision: 'remove', decidedBy: owner.user.email, comment: 'left' });
    expect(await failure(owner.api.reviews.close(review.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(alice.api.reviews.decide(review.id, theirs.id, { decision: 'keep' }))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.admin.reviews.decide(review.id, 999999, { decision: 'keep' }))).toMatchObject({ code: 'not_found' });
    expect((await portal.admin.reviews.get(review.id)).progress).toEqual({ items: 4, decided: 2, keep: 1, remove: 1 });
  });

  it('filters items never used or unused for N days', async () => {
    const { app, alice, bob } = await world();
    expect((await verify(app, alice.token)).status).toBe(200);
    await portal.deps.lastUse.flush(portal.deps.db);
    const review = await portal.admin.reviews.start({ name: unique('unused'), apps: [app.id], reviewers: 'admins', due: inDays(10), whenMissed: 'keep' });
    const unused = await portal.admin.reviews.items(review.id, { unusedDays: 90 });
    expect(unused.map((item) => item.user?.email ?? item.team?.name).sort()).not.toContain(alice.user.email);
    expect(unused.map((item) => item.user?.email)).toContain(bob.user.email);
    expect(itemOf(await portal.admin.reviews.items(review.id), alice.user.email).lastUsed).toBeDefined();
    const bad = await portal.fetch(`/api/auth/v1/review/${review.id}/item?unusedDays=x`, { headers: { authorization: `Bearer ${portal.admin.token}` } });
    expect(bad.status).toBe(400);
  });

  it('applyNow revokes at once; the close removes the rest; a grant changed meanwhile is handled as documented', async () => {
    const { app, alice, bob, team } = await world();
    const carol = await portal.createUser();
    await portal.admin.users.grant(carol.user.id, app.id);
    const review = await portal.admin.reviews.start({ name: unique('changes'), apps: [app.id], reviewers: 'owners', due: inDays(10), whenMissed: 'keep' });
    const items = await portal.admin.reviews.items(review.id);
    // applyNow: gone before the close.
    await portal.admin.reviews.decide(review.id, itemOf(items, team.name).id, { decision: 'remove', applyNow: true });
    expect((await portal.admin.teams.apps(team.id)).map((granted) => granted.id)).not.toContain(app.id);
    expect(await failure(portal.admin.reviews.decide(review.id, itemOf(items, team.name).id, { decision: 'keep' }))).toMatchObject({ code: 'conflict' });
    // Alice: role changed meanwhile -> removed as it now is. Bob: revoked meanwhile -> a logged no-op.
    // Carol: revoked and granted anew -> another grant, which stays.
    await portal.admin.users.updateGrant(alice.user.id, app.id, { role: 'viewer' });
    await portal.admin.users.revoke(bob.user.id, app.id);
    await portal.admin.users.revoke(carol.user.id, app.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await portal.admin.users.grant(carol.user.id, app.id);
    await portal.admin.reviews.decideMany(review.id, { items: [alice, bob, carol].map((user) => itemOf(items, user.user.email).id), decision: 'remove' });
    const closed = await portal.admin.reviews.close(review.id);
    expect(closed).toMatchObject({ status: 'closed', closedBy: ADMIN_EMAIL });
    expect(await failure(portal.admin.reviews.close(review.id))).toMatchObject({ code: 'conflict' });
    expect(await failure(portal.admin.reviews.decide(review.id, itemOf(items, alice.user.email).id, { decision: 'keep' }))).toMatchObject({ code: 'conflict' });
    const after = await portal.admin.reviews.items(review.id);
    expect(itemOf(after, alice.user.email).outcome).toBe('removed');
    expect(itemOf(after, bob.user.email).outcome).toBe('already_gone');
    expect(itemOf(after, carol.user.email).outcome).toBe('already_gone');
    expect(itemOf(after, team.name).outcome).toBe('removed');
    expect((await verify(app, alice.token)).status).toBe(403);
    expect((await verify(app, carol.token)).status).toBe(200);
    const revokes = await logEntries('review.revoke');
    const aliceRevoked = revokes.find((entry) => entry.event.includes(alice.user.email) && entry.event.includes(review.name));
    expect(aliceRevoked?.event).toContain('role viewer');
    // Each entry is about the user and their client (docs/event-log.md).
    expect(aliceRevoked).toMatchObject({ user: alice.user.email, client: alice.user.client.name });
    const bobDecided = (await logEntries('review.decide')).find((entry) => entry.event.includes(bob.user.email) && entry.event.includes(review.name));
    expect(bobDecided).toMatchObject({ user: bob.user.email, client: bob.user.client.name });
    expect((await logEntries('review.noop')).find((entry) => entry.event.includes(bob.user.email))).toMatchObject({ client: bob.user.client.name });
    expect((await logEntries('review.close'))[0]).toMatchObject({ actor: ADMIN_EMAIL });
  });
});

describe('at due, on a fixed clock', () => {
  for (const whenMissed of ['keep', 'revoke'] as const) {
    it(`undecided items are ${whenMissed === 'keep' ? 'kept' : 'removed'} (whenMissed ${whenMissed}), logged with the review as actor`, async () => {
      const { app, alice, bob } = await world();
      const review = await portal.admin.reviews.start({
        name: unique(`missed-${whenMissed}`),
        apps: [app.id],
        reviewers: 'owners',
        due: inDays(1),
        whenMissed,
      });
      const items = await portal.admin.reviews.items(review.id);
      await portal.admin.reviews.decide(review.id, itemOf(items, alice.user.email).id, { decision: 'keep' });
      const due = Date.parse(review.due);
      const policy = portal.deps.config;
      expect(await runReviewJob(portal.deps.db, { policy, now: due - 1 })).toBe(0);
      expect((await portal.admin.reviews.get(review.id)).status).toBe('open');
      expect(await runReviewJob(portal.deps.db, { policy, now: due })).toBeGreaterThanOrEqual(1);
      expect(await portal.admin.reviews.get(review.id)).toMatchObject({ status: 'closed', closedBy: 'review' });
      const after = await portal.admin.reviews.items(review.id);
      expect(itemOf(after, alice.user.email).outcome).toBe('kept');
      expect(itemOf(after, bob.user.email).outcome).toBe(whenMissed === 'keep' ? 'kept' : 'removed');
      portal.deps.authCache.clearHere();
      expect((await verify(app, bob.token)).status).toBe(whenMissed === 'keep' ? 200 : 403);
      const close = (await logEntries('review.close')).find((entry) => entry.event.includes(review.name))!;
      expect(close.actor).toContain(review.name);
      if (whenMissed === 'revoke') {
        const revoke = (await logEntries('review.revoke')).find((entry) => entry.event.includes(bob.user.email))!;
        expect(revoke.actor).toContain(review.name);
      }
    });
  }
});

describe('mail and evidence', () => {
  it('mails reviewers at the start, a reminder three days before due, the starter a summary; none when less than three days remain', async () => {
    const { app, owner } = await world();
    const review = await portal.admin.reviews.start({ name: unique('mailed'), apps: [app.id], reviewers: 'owners', due: inDays(10), whenMissed: 'keep' });
    const [started] = await smtp.waitFor(owner.user.email, 1);
    expect(started.parsed.subject).toContain(review.name);
    const due = Date.parse(review.due);
    await runReviewJob(portal.deps.db, { policy: portal.deps.config, now: due - 3 * DAY_MS });
    const [, reminder] = await smtp.waitFor(owner.user.email, 2);
    expect(reminder.parsed.subject).toContain('Reminder');
    await runReviewJob(portal.deps.db, { policy: portal.deps.config, now: due - 2 * DAY_MS });
    expect((await logEntries('review.remind')).filter((entry) => entry.event.includes(review.name))).toHaveLength(1);
    await portal.admin.reviews.close(review.id);
    const summary = () => smtp.to(ADMIN_EMAIL).some((mail) => mail.parsed.subject === `Access review ${review.name} closed`);
    expect(await becomesTrue(async () => summary(), 10_000)).toBe(true);

    const soon = await portal.admin.reviews.start({ name: unique('soon'), apps: [app.id], reviewers: 'owners', due: inDays(2), whenMissed: 'keep' });
    await runReviewJob(portal.deps.db, { policy: portal.deps.config, now: Date.parse(soon.due) - DAY_MS });
    expect((await logEntries('review.remind')).some((entry) => entry.event.includes(soon.name))).toBe(false);
  });

  it('exports every item with decision, decider, time and comment, formula-safe, as CSV and JSON Lines', async () => {
    const { app, alice } = await world();
    const review = await portal.admin.reviews.start({ name: unique('export'), apps: [app.id], reviewers: 'owners', due: inDays(10), whenMissed: 'keep' });
    const items = await portal.admin.reviews.items(review.id);
    await portal.admin.reviews.decide(review.id, itemOf(items, alice.user.email).id, { decision: 'keep', comment: '=HYPERLINK("x")' });
    const csv = await (await portal.admin.reviews.export(review.id, 'csv')).text();
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('review,item,app,kind,grantee,role,expires,granted,grantedBy,lastUsed,decision,decidedBy,decided,comment,outcome,applied');
    expect(lines).toHaveLength(items.length + 1);
    const aliceLine = lines.find((line) => line.includes(alice.user.email))!;
    expect(aliceLine).toContain(`keep,${ADMIN_EMAIL}`);
    expect(aliceLine).toContain(`"'=HYPERLINK(""x"")"`);
    const jsonl = await (await portal.admin.reviews.export(review.id, 'jsonl')).text();
    const rows = jsonl
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.find((row) => row.grantee === alice.user.email)).toMatchObject({ decision: 'keep', decidedBy: ADMIN_EMAIL, comment: '=HYPERLINK("x")' });
    const bad = await portal.fetch(`/api/auth/v1/review/${review.id}/export?format=xls`, { headers: { authorization: `Bearer ${portal.admin.token}` } });
    expect(bad.status).toBe(400);
  });
});
