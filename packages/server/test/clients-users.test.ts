import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createApp, failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

describe('clients', () => {
  it('creates, lists, reads and deletes a client', async () => {
    const name = unique('Acme');
    const client = await portal.admin.clients.create(name);
    expect(client).toEqual({ id: expect.any(Number), name });
    expect(await portal.admin.clients.list()).toContainEqual(client);
    expect(await portal.admin.clients.get(client.id)).toEqual(client);
    await portal.admin.clients.delete(client.id);
    expect(await failure(portal.admin.clients.get(client.id))).toMatchObject({ code: 'not_found' });
  });

  it('lists clients by name, Admin among them', async () => {
    await portal.admin.clients.create(unique('zeta'));
    await portal.admin.clients.create(unique('alpha'));
    const names = (await portal.admin.clients.list()).map((client) => client.name);
    expect(names).toContain('Admin');
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('refuses an empty, overlong or duplicate name', async () => {
    expect(await failure(portal.admin.clients.create(''))).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(await failure(portal.admin.clients.create('   '))).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(await failure(portal.admin.clients.create('x'.repeat(201)))).toMatchObject({ field: 'name' });
    const name = unique('dup');
    await portal.admin.clients.create(name);
    expect(await failure(portal.admin.clients.create(name))).toMatchObject({ code: 'conflict' });
  });

  it("lists a client's users sorted by email", async () => {
    const client = await portal.admin.clients.create(unique('team'));
    await portal.createUser({ client, email: `zed-${unique('u')}@example.com` });
    await portal.createUser({ client, email: `amy-${unique('u')}@example.com` });
    const emails = (await portal.admin.clients.users(client.id)).map((user) => user.email);
    expect(emails).toHaveLength(2);
    expect(emails[0].startsWith('amy-')).toBe(true);
    expect(await failure(portal.admin.clients.users(999999))).toMatchObject({ code: 'not_found' });
  });

  it('deleting a client deletes its users and ends their access at once', async () => {
    const client = await portal.admin.clients.create(unique('gone'));
    const { api, user } = await portal.createUser({ client });
    expect((await api.users.me()).id).toBe(user.id);
    await portal.admin.clients.delete(client.id);
    expect(await failure(api.users.me())).toMatchObject({ code: 'unauthenticated' });
    expect(await failure(portal.admin.users.get(user.id))).toMatchObject({ code: 'not_found' });
  });

  it('keeps the Admin client', async () => {
    const admin = (await portal.admin.clients.list()).find((client) => client.name === 'Admin')!;
    expect(await failure(portal.admin.clients.delete(admin.id))).toMatchObject({ code: 'forbidden' });
  });

  it('is admin-only', async () => {
    const { api } = await portal.createUser();
    expect(await failure(api.clients.list())).toMatchObject({ code: 'forbidden' });
    expect(await failure(api.clients.create(unique('x')))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.clients.list())).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('users', () => {
  it('shows the current user with client and admin flag', async () => {
    const me = await portal.admin.users.me();
    expect(me).toMatchObject({ email: ADMIN_EMAIL, client: { name: 'Admin' }, admin: true });
    const { api, email } = await portal.createUser();
    expect(await api.users.me()).toMatchObject({ email, admin: false });
  });

  it('lists, reads and deletes users; deletion ends their sessions and keys at once', async () => {
    const { api, user, email } = await portal.createUser();
    expect((await portal.admin.users.list()).map((u) => u.email)).toContain(email);
    expect(await portal.admin.users.get(user.id)).toEqual({ id: user.id, email, name: '', client: user.client });
    await portal.admin.users.delete(user.id);
    expect(await failure(api.users.me())).toMatchObject({ code: 'unauthenticated' });
    expect(await failure(portal.admin.users.get(user.id))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.users.delete(user.id))).toMatchObject({ code: 'not_found' });
  });

  it('grants and revokes apps one at a time', async () => {
    const [first, second] = [await createApp(portal.admin), await createApp(portal.admin)];
    const { api, user } = await portal.createUser({ apps: [first] });
    await portal.admin.users.grant(user.id, second.id);
    expect((await portal.admin.users.apps(user.id)).map((app) => app.id).sort()).toEqual([first.id, second.id].sort());
    expect(await failure(portal.admin.users.grant(user.id, second.id))).toMatchObject({ code: 'conflict' });
    await portal.admin.users.revoke(user.id, first.id);
    expect(await api.apps.list()).toEqual([{ ...second, favourite: false }]);
    expect(await failure(portal.admin.users.revoke(user.id, first.id))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.users.grant(user.id, 999999))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.users.grant(999999, first.id))).toMatchObject({ code: 'not_found' });
  });

  it('refuses a bad grant body and bad ids, naming the field', async () => {
    const { user } = await portal.createUser();
    const response = await portal.fetch(`/api/auth/v1/user/${user.id}/app`, {
      method: 'POST',
      headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ appid: 'one' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_input', details: { field: 'appid' } } });
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const answer = await portal.fetch(`/api/auth/v1/user/${id}`, { headers: { authorization: `Bearer ${portal.admin.token}` } });
      expect(answer.status, id).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { details: { field: 'id' } } });
    }
  });

  it('ends every session of a user on request, keeping the user', async () => {
    const { api, user, email, password } = await portal.createUser();
    const second = portal.client(await portal.login(email, password));
    await portal.admin.users.endSessions(user.id);
    expect(await failure(api.users.me())).toMatchObject({ code: 'unauthenticated' });
    expect(await failure(second.users.me())).toMatchObject({ code: 'unauthenticated' });
    expect(await portal.admin.users.get(user.id)).toMatchObject({ email });
  });

  it('does not let an admin delete themselves', async () => {
    const me = await portal.admin.users.me();
    expect(await failure(portal.admin.users.delete(me.id))).toMatchObject({ code: 'forbidden' });
  });

  it('is admin-only, and a user never learns of others', async () => {
    const { api, user } = await portal.createUser();
    expect(await failure(api.users.list())).toMatchObject({ code: 'forbidden' });
    expect(await failure(api.users.get(user.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(api.users.apps(user.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.users.me())).toMatchObject({ code: 'unauthenticated' });
  });
});
