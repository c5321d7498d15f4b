/** Access requests (docs/api.md, Access requests): asking, approving, denying, and their races. */
import type { PortalClient } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { useMailedPortal } from './support/smtp.js';
import { ADMIN_EMAIL, createApp, failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

const requestableApp = (overrides: { category?: string } = {}) =>
  portal.admin.apps.create({
    name: unique('req'),
    url: `https://${unique('req')}.example.com/`,
    description: 'Ask for it',
    category: overrides.category ?? 'Tools',
    requestable: true,
  });

async function events(): Promise<string[]> {
  return (await portal.admin.logs.page(1, 100)).map((entry) => entry.event);
}

async function hasApp(api: PortalClient, appId: number): Promise<boolean> {
  return (await api.apps.list()).some((app) => app.id === appId);
}

describe('requestable apps', () => {
  it('lists requestable apps the caller cannot use yet, without their URL', async () => {
    const wanted = await requestableApp({ category: 'Finance' });
    const held = await requestableApp();
    const plain = await createApp(portal.admin);
    const { api } = await portal.createUser({ apps: [held] });
    const listed = await api.users.requestable();
    expect(listed).toContainEqual({ id: wanted.id, name: wanted.name, description: 'Ask for it', descriptionDe: '', category: 'Finance' });
    expect(listed.map((app) => app.id)).not.toContain(held.id);
    expect(listed.map((app) => app.id)).not.toContain(plain.id);
    expect(JSON.stringify(listed)).not.toContain('example.com');
    expect(await portal.admin.users.requestable()).toEqual([]);
  });
});

describe('access requests', () => {
  it('a request answers 201 with its shape; one open request per user and app', async () => {
    const app = await requestableApp();
    const { api, user, email } = await portal.createUser();
    const request = await api.accessRequests.create({ appid: app.id, reason: 'I run the reports' });
    expect(request).toEqual({
      id: expect.any(Number),
      app: { id: app.id, name: app.name },
      user: { id: user.id, email },
      reason: 'I run the reports',
      status: 'open',
      createdTimestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(await failure(api.accessRequests.create({ appid: app.id, reason: 'again' }))).toEqual({
      code: 'conflict',
      message: 'you have an open request for this app already',
    });
    expect(await api.accessRequests.list()).toEqual([request]);
    expect(await events()).toContain(`requested access to app ${app.name}`);
  });

  it('an app that is not requestable looks like one that does not exist; a granted one is 409', async () => {
    const plain = await createApp(portal.admin);
    const granted = await requestableApp();
    const { api } = await portal.createUser({ apps: [granted] });
    const notRequestable = await failure(api.accessRequests.create({ appid: plain.id, reason: '' }));
    const missing = await failure(api.accessRequests.create({ appid: 999999, reason: '' }));
    expect(notRequestable.code).toBe('not_found');
    expect(missing.code).toBe('not_found');
    expect(notRequestable.message.replace(String(plain.id), 'N')).toBe(missing.message.replace('999999', 'N'));
    expect(await failure(api.accessRequests.create({ appid: granted.id, reason: '' }))).toMatchObject({ code: 'conflict' });
    expect(await failure(portal.admin.accessRequests.create({ appid: granted.id, reason: '' }))).toMatchObject({ code: 'conflict' });
    expect(await failure(api.request('POST', '/accessrequest/', { appid: granted.id, reason: 'x'.repeat(2001) }))).toMatchObject({ field: 'reason' });
    expect(await failure(api.request('POST', '/accessrequest/', { appid: 'one' }))).toMatchObject({ field: 'appid' });
  });

  it('approval grants the app (until a date if given), once', async () => {
    const app = await requestableApp();
    const other = await requestableApp();
    const { api, user, email } = await portal.createUser();
    const request = await api.accessRequests.create({ appid: app.id, reason: 'please' });
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect(await failure(portal.admin.accessRequests.approve(request.id, new Date(Date.now() - 1).toISOString()))).toMatchObject({ field: 'expires' });
    const approved = await portal.admin.accessRequests.approve(request.id, expires);
    expect(approved).toMatchObject({ id: request.id, status: 'approved', decidedBy: 'admin@example.com', decidedTimestamp: expect.any(String) });
    expect(approved).not.toHaveProperty('decision');
    expect(await hasApp(api, app.id)).toBe(true);
    expect((await portal.admin.users.apps(user.id)).find((each) => each.id === app.id)?.expires).toBe(expires);
    expect(await failure(portal.admin.accessRequests.approve(request.id))).toMatchObject({ code: 'conflict' });
    expect(await failure(portal.admin.accessRequests.deny(request.id))).toMatchObject({ code: 'conflict' });
    expect(await failure(portal.admin.accessRequests.approve(999999))).toMatchObject({ code: 'not_found' });
    expect((await api.accessRequests.list())[0]).toEqual(approved);
    expect(await failure(api.accessRequests.approve(request.id))).toMatchObject({ code: 'forbidden' });
    // Without an expiry, the grant has none.
    const second = await api.accessRequests.create({ appid: other.id, reason: '' });
    await portal.admin.accessRequests.approve(second.id);
    expect((await portal.admin.users.apps(user.id)).find((each) => each.id === other.id)).not.toHaveProperty('expires');
    expect(await events()).toContain(`approved access request ${request.id}: granted app ${app.name} to ${email}, expiring ${expires}`);
  });

  it('denial carries its reason; the user may ask again afterwards', async () => {
    const app = await requestableApp();
    const { api, email } = await portal.createUser();
    const request = await api.accessRequests.create({ appid: app.id, reason: 'please' });
    const denied = await portal.admin.accessRequests.deny(request.id, 'ask your manager first');
    expect(denied).toMatchObject({ status: 'denied', decision: 'ask your manager first', decidedBy: 'admin@example.com' });
    expect(await hasApp(api, app.id)).toBe(false);
    const again = await api.accessRequests.create({ appid: app.id, reason: 'my manager agrees' });
    expect(again.status).toBe('open');
    expect((await api.accessRequests.list()).map((each) => each.status)).toEqual(['open', 'denied']);
    const plain = await portal.admin.accessRequests.deny(again.id);
    expect(plain.decision).toBe('');
    expect(await events()).toContain(`denied access request ${request.id} for app ${app.name} by ${email}: ask your manager first`);
  });

  it('users see only their own requests; admins every open one and the decided ones', async () => {
    const app = await requestableApp();
    const alice = await portal.createUser();
    const bob = await portal.createUser();
    const fromAlice = await alice.api.accessRequests.create({ appid: app.id, reason: 'a' });
    const fromBob = await bob.api.accessRequests.create({ appid: app.id, reason: 'b' });
    expect((await alice.api.accessRequests.list()).map((each) => each.id)).toEqual([fromAlice.id]);
    await portal.admin.accessRequests.deny(fromBob.id);
    const all = await portal.admin.accessRequests.list();
    const open = all.filter((each) => each.status === 'open');
    expect(open.map((each) => each.id)).toContain(fromAlice.id);
    expect(all.map((each) => each.id)).toContain(fromBob.id);
    // Open ones first, then decided ones.
    expect(all.findIndex((each) => each.status !== 'open')).toBe(open.length);
  });

  it('deleting the app or the user removes their requests', async () => {
    const app = await requestableApp();
    const { api, user } = await portal.createUser();
    const request = await api.accessRequests.create({ appid: app.id, reason: '' });
    await portal.admin.apps.delete(app.id);
    expect(await api.accessRequests.list()).toEqual([]);
    const next = await requestableApp();
    await api.accessRequests.create({ appid: next.id, reason: '' });
    await portal.admin.users.delete(user.id);
    expect((await portal.admin.accessRequests.list()).map((each) => each.user.id)).not.toContain(user.id);
    expect(await failure(portal.admin.accessRequests.approve(request.id))).toMatchObject({ code: 'not_found' });
  });
});

describe('races', () => {
  it('approve and deny at once: exactly one decision wins, and the grant matches it', async () => {
    const app = await requestableApp();
    for (let round = 0; round < 8; round++) {
      const { api, user } = await portal.createUser();
      const request = await api.accessRequests.create({ appid: app.id, reason: '' });
      const outcomes = await Promise.allSettled([
        portal.admin.accessRequests.approve(request.id),
        portal.admin.accessRequests.deny(request.id),
        portal.admin.accessRequests.approve(request.id),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const outcome of outcomes) if (outcome.status === 'rejected') expect((outcome.reason as { code: string }).code).toBe('conflict');
      const final = (await api.accessRequests.list())[0];
      expect(await hasApp(api, app.id)).toBe(final.status === 'approved');
      expect((await portal.deps.db('user_apps').where({ user_id: user.id, app_id: app.id })).length).toBe(final.status === 'approved' ? 1 : 0);
    }
  });

  it('a request racing its approval never leaves an open request for an app the user holds', async () => {
    const app = await requestableApp();
    for (let round = 0; round < 8; round++) {
      const { api, user } = await portal.createUser();
      const first = await api.accessRequests.create({ appid: app.id, reason: '' });
      const [approval, ...again] = await Promise.allSettled([
        portal.admin.accessRequests.approve(first.id),
        api.accessRequests.create({ appid: app.id, reason: 'again' }),
        api.accessRequests.create({ appid: app.id, reason: 'and again' }),
      ]);
      expect(approval.status).toBe('fulfilled');
      for (const outcome of again) {
        expect(outcome.status).toBe('rejected');
        expect(((outcome as PromiseRejectedResult).reason as { code: string }).code).toBe('conflict');
      }
      const open = await portal.deps.db('access_requests').where({ user_id: user.id, status: 'open' });
      expect(open).toEqual([]);
      expect(await hasApp(api, app.id)).toBe(true);
    }
  });

  it('the same request sent many times at once: one is open, the rest are conflicts', async () => {
    const app = await requestableApp();
    const { api, user } = await portal.createUser();
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => api.accessRequests.create({ appid: app.id, reason: '' })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect((outcome.reason as { code: string }).code).toBe('conflict');
    expect(await portal.deps.db('access_requests').where({ user_id: user.id })).toHaveLength(1);
  });
});

describe('with mail configured', () => {
  const { portal: mailed, smtp } = useMailedPortal();

  it('admins get a mail per new request, the user one per decision; stored text is escaped', async () => {
    const hostile = `<a href="https://evil.example.com">click</a> & "more"`;
    const app = await mailed.admin.apps.create({ name: unique('mailed'), url: 'https://mailed.example.com/', requestable: true });
    const other = await mailed.admin.apps.create({ name: unique('mailed'), url: 'https://mailed2.example.com/', requestable: true });
    const { api, email } = await mailed.createUser();
    const request = await api.accessRequests.create({ appid: app.id, reason: hostile });
    const [toAdmin] = await smtp.waitFor(ADMIN_EMAIL);
    expect(toAdmin.subject).toBe(`Access request: ${app.name} for ${email}`);
    expect(toAdmin.text).toContain(hostile);
    expect(toAdmin.text).toContain(`${mailed.url}/auth/#/accessrequests`);
    expect(toAdmin.html).not.toContain('<a href="https://evil.example.com">');

    const expires = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await mailed.admin.accessRequests.approve(request.id, expires);
    const [approved] = await smtp.waitFor(email);
    expect(approved.subject).toBe(`Access to ${app.name} approved`);
    expect(approved.text).toContain(expires.slice(0, 16).replace('T', ' '));

    const second = await api.accessRequests.create({ appid: other.id, reason: '' });
    await mailed.admin.accessRequests.deny(second.id, 'not this quarter');
    const mails = await smtp.waitFor(email, 2);
    const denied = mails.find((mail) => mail.subject === `Access to ${other.name} denied`);
    expect(denied?.text).toContain('not this quarter');
  });

  it('owners of the app get a mail per new request too, directly or through a team; owners of other apps do not', async () => {
    const [owner, teamOwner, otherOwner, asker] = await Promise.all(Array.from({ length: 4 }, () => mailed.createUser()));
    const owners = await mailed.admin.teams.create({ name: unique('Owners') });
    await mailed.admin.teams.addUser(owners.id, { userid: teamOwner.user.id });
    const app = await mailed.admin.apps.create({
      name: unique('owned'),
      url: 'https://owned.example.com/',
      requestable: true,
      roles: ['viewer', 'editor'],
      owners: { users: [owner.user.id], teams: [owners.id] },
    });
    await mailed.admin.apps.create({ name: unique('other'), url: 'https://other.example.com/', owners: { users: [otherOwner.user.id], teams: [] } });
    const request = await asker.api.accessRequests.create({ appid: app.id, role: 'editor', reason: 'to edit' });
    for (const manager of [owner, teamOwner]) {
      const [mail] = await smtp.waitFor(manager.email);
      expect(mail.subject).toBe(`Access request: ${app.name} for ${asker.email}`);
    }
    await owner.api.accessRequests.approve(request.id);
    const [approved] = await smtp.waitFor(asker.email);
    expect(approved.subject).toBe(`Access to ${app.name} approved`);
    expect(smtp.to(otherOwner.email)).toEqual([]);
  });
});
