import { generateApiKey } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createApp, failure, unique, useTestPortal } from './support.js';

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
    await portal.login(ADMIN_EMAIL, 'admin-password-123');
    const [newest] = await portal.admin.logs.page(1, 1);
    expect(newest).toMatchObject({ client: 'Admin', user: ADMIN_EMAIL, event: 'login with password' });
    expect(Date.parse(newest.timestamp)).toBeGreaterThanOrEqual(Date.parse(latest.timestamp));
    expect(newest.id).toBeGreaterThan(latest.id);
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
});
