import { generateApiKey } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { refuseEvents } from './support/refused-events.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApp, failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

const events = async (count = 100) => (await portal.admin.logs.page(1, count)).map((entry) => entry.event);

describe('event log', () => {
  it('records logins, failures, registrations, logouts and every admin change', async () => {
    const clientName = unique('logged');
    const client = await portal.admin.clients.create(clientName);
    const app = await createApp(portal.admin);
    const { api, user, email, password } = await portal.createUser({ client, apps: [app] });
    await failure(portal.login(email, 'wrong-password'));
    await portal.login(email, password);
    const key = generateApiKey();
    await api.accessTokens.create(key);
    await api.accessTokens.delete(key);
    await api.auth.logout();
    await portal.admin.users.revoke(user.id, app.id);
    await portal.admin.users.grant(user.id, app.id);
    await portal.admin.apps.update({ ...app, name: `${app.name}-renamed` });
    await portal.admin.apps.delete(app.id);
    await portal.admin.users.delete(user.id);
    await portal.admin.clients.delete(client.id);

    const log = await events();
    expect(log).toEqual(
      expect.arrayContaining([
        `created client ${clientName}`,
        `created app ${app.name}`,
        `invited ${email} to client ${clientName}`,
        'registered with password',
        'login failed: wrong password',
        'login with password',
        expect.stringMatching(/^created API key apikey-/),
        expect.stringMatching(/^deleted API key apikey-.* of /),
        'logout',
        `revoked app ${app.name} from ${email}`,
        `granted app ${app.name} to ${email}`,
        `updated app ${app.name}-renamed (was ${app.name})`,
        `deleted app ${app.name}-renamed`,
        `deleted user ${email}`,
        `deleted client ${clientName} with 0 users`,
      ]),
    );
  });

  it('names the client and user of each entry, newest first', async () => {
    await failure(portal.login('ghost@example.com', 'wrong-password'));
    const [latest] = await portal.admin.logs.page(1, 1);
    expect(latest).toMatchObject({ client: '', user: 'ghost@example.com', event: 'login failed: unknown email' });
    await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const [newest] = await portal.admin.logs.page(1, 1);
    expect(newest).toMatchObject({ client: 'Admin', user: ADMIN_EMAIL, event: 'login with password' });
    expect(Date.parse(newest.timestamp)).toBeGreaterThanOrEqual(Date.parse(latest.timestamp));
    expect(newest.id).toBeGreaterThan(latest.id);
  });

  it('names who did each kind of admin change (actor), what it was about (user, client) and its type', async () => {
    const clientName = unique('actor');
    const client = await portal.admin.clients.create(clientName);
    const app = await createApp(portal.admin);
    const { api, user, email } = await portal.createUser({ client });
    const key = generateApiKey();
    const created = await api.accessTokens.create(key);
    await portal.admin.accessTokens.delete(created.id);
    await portal.admin.users.grant(user.id, app.id);
    await portal.admin.users.revoke(user.id, app.id);
    await portal.admin.apps.update({ ...app, description: 'changed' });
    const invite = await portal.admin.invites.create({ email: `${unique('dave')}@example.com`, clientid: client.id, apps: [] });
    await portal.admin.invites.delete(invite.id);
    await portal.admin.users.endSessions(user.id);
    await portal.admin.apps.delete(app.id);
    await portal.admin.users.delete(user.id);
    await portal.admin.clients.delete(client.id);

    const log = await portal.admin.logs.page(1, 100);
    const entry = (type: string, text: string) => {
      const found = log.find((candidate) => candidate.type === type && candidate.event.startsWith(text));
      expect(found, `${type} ${text}`).toBeDefined();
      return found!;
    };
    const byAdmin = { actor: ADMIN_EMAIL, ip: '127.0.0.1', count: 1 };
    expect(entry('client.create', `created client ${clientName}`)).toMatchObject({ ...byAdmin, client: clientName, user: '' });
    expect(entry('app.create', `created app ${app.name}`)).toMatchObject(byAdmin);
    expect(entry('invite.create', `invited ${email}`)).toMatchObject({ ...byAdmin, client: clientName, user: email });
    expect(entry('register.password', 'registered with password')).toMatchObject({ actor: email, client: clientName, user: email });
    expect(entry('apikey.create', 'created API key')).toMatchObject({ actor: email, user: email });
    expect(entry('apikey.delete', `deleted API key ${created.token} of ${email}`)).toMatchObject({ ...byAdmin, client: clientName, user: email });
    expect(entry('grant.add', `granted app ${app.name} to ${email}`)).toMatchObject({ ...byAdmin, client: clientName, user: email });
    expect(entry('grant.remove', `revoked app ${app.name} from ${email}`)).toMatchObject({ ...byAdmin, client: clientName, user: email });
    expect(entry('app.update', `updated app ${app.name}`)).toMatchObject(byAdmin);
    expect(entry('invite.delete', `deleted invite for ${invite.email}`)).toMatchObject({ ...byAdmin, client: clientName, user: invite.email });
    expect(entry('session.end_all', `ended 1 sessions of ${email}`)).toMatchObject({ ...byAdmin, client: clientName, user: email });
    expect(entry('app.delete', `deleted app ${app.name}`)).toMatchObject(byAdmin);
    expect(entry('user.delete', `deleted user ${email}`)).toMatchObject({ ...byAdmin, client: clientName, user: email });
    expect(entry('client.delete', `deleted client ${clientName}`)).toMatchObject({ ...byAdmin, client: clientName, user: '' });
    for (const logged of log.filter((candidate) => candidate.actor !== '')) expect(logged.userAgent, logged.event).toMatch(/node|undici/i);
  });

  it('records anonymous events without an actor, and the sign-in of a user as done by that user', async () => {
    await failure(portal.login('nobody-here@example.com', 'wrong-password'));
    await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const [success, failed] = await portal.admin.logs.page(1, 2);
    expect(failed).toMatchObject({ type: 'login.failure', actor: '', user: 'nobody-here@example.com' });
    expect(success).toMatchObject({ type: 'login.success', actor: ADMIN_EMAIL, user: ADMIN_EMAIL, client: 'Admin' });
  });

  it('pages from 1 with at most 100 a page', async () => {
    for (let i = 0; i < 25; i++) await portal.admin.clients.create(unique('page'));
    const first = await portal.admin.logs.page(1, 20);
    const second = await portal.admin.logs.page(2, 20);
    expect(first).toHaveLength(20);
    expect(second[0].id).toBe(first[19].id - 1);
    expect(await portal.admin.logs.page(10000, 20)).toEqual([]);
    expect(await failure(portal.admin.logs.page(0, 20))).toMatchObject({ field: 'currentPage' });
    expect(await failure(portal.admin.logs.page(1, 101))).toMatchObject({ field: 'perPage' });
  });

  it('is admin-only', async () => {
    const { api } = await portal.createUser();
    expect(await failure(api.logs.page(1, 20))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.logs.page(1, 20))).toMatchObject({ code: 'unauthenticated' });
  });

  it("ends none of the caller's own sessions when their entry cannot be written: the change and its entry are one transaction", async () => {
    const { email, password } = await portal.createUser();
    const [first, second, third] = [await portal.login(email, password), await portal.login(email, password), await portal.login(email, password)];
    const api = portal.client(first);
    const [revoked] = (await api.account.sessions.list()).filter((session) => !session.current);
    const allowEvents = await refuseEvents(portal.deps.db, 'session.revoke');
    try {
      expect(await failure(api.account.sessions.revoke(revoked!.id))).toMatchObject({ code: 'internal' });
      expect(await failure(api.account.sessions.revokeOthers())).toMatchObject({ code: 'internal' });
    } finally {
      await allowEvents();
    }
    for (const token of [first, second, third]) expect((await portal.client(token).users.me()).email).toBe(email);
  });
});
