import { describe, expect, it } from 'vitest';
import { createApp, failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

describe('apps', () => {
  it('creates, reads, updates and deletes an app', async () => {
    const name = unique('wiki');
    const app = await portal.admin.apps.create({ name, url: 'https://wiki.example.com/', description: 'The wiki', doclink: '' });
    expect(app).toEqual({
      id: expect.any(Number),
      name,
      url: 'https://wiki.example.com/',
      description: 'The wiki',
      descriptionDe: '',
      doclink: '',
      category: '',
      requestable: false,
      icon: null,
      roles: [],
      owners: { users: [], teams: [] },
    });
    expect(await portal.admin.apps.get(app.id)).toEqual(app);

    const updated = await portal.admin.apps.update({ ...app, url: 'https://wiki2.example.com/', doclink: 'https://docs.example.com/wiki' });
    expect(updated).toEqual({ ...app, url: 'https://wiki2.example.com/', doclink: 'https://docs.example.com/wiki' });
    expect(await portal.admin.apps.get(app.id)).toEqual(updated);

    await portal.admin.apps.delete(app.id);
    expect(await failure(portal.admin.apps.get(app.id))).toMatchObject({ code: 'not_found' });
  });

  it('carries a German description beside the English one (descriptionDe), kept when a PUT leaves it out', async () => {
    const name = unique('wiki');
    const app = await portal.admin.apps.create({ name, url: 'https://wiki.example.com/', description: 'The wiki', descriptionDe: 'Das Wiki – für alle' });
    expect(app.descriptionDe).toBe('Das Wiki – für alle');
    expect(await portal.admin.apps.get(app.id)).toEqual(app);
    const listed = (await portal.admin.apps.list()).find((entry) => entry.id === app.id);
    expect(listed?.descriptionDe).toBe('Das Wiki – für alle');
    // An older client's PUT without the field leaves it as it was; an empty one clears it.
    const { descriptionDe: _left, ...older } = app;
    expect((await portal.admin.apps.update({ ...older, description: 'The wiki, renamed' })).descriptionDe).toBe('Das Wiki – für alle');
    expect((await portal.admin.apps.update({ ...app, descriptionDe: 'Neu' })).descriptionDe).toBe('Neu');
    expect((await portal.admin.apps.update({ ...app, descriptionDe: '' })).descriptionDe).toBe('');
    const bad = (value: unknown) => failure(portal.admin.apps.create({ name: unique('a'), url: 'https://x.example.com/', descriptionDe: value as string }));
    expect(await bad(42)).toMatchObject({ code: 'invalid_input', field: 'descriptionDe' });
    expect(await bad('x'.repeat(2001))).toMatchObject({ code: 'invalid_input', field: 'descriptionDe' });
    expect(await bad('a\u0000b')).toMatchObject({ code: 'invalid_input', field: 'descriptionDe' });
  });

  it('answers GET /app/ and GET /app alike', async () => {
    const app = await createApp(portal.admin);
    for (const path of ['/api/auth/v1/app/', '/api/auth/v1/app']) {
      const response = await portal.fetch(path, { headers: { authorization: `Bearer ${portal.admin.token}` } });
      expect(response.status).toBe(200);
      expect((await response.json()) as unknown[]).toContainEqual({ ...app, favourite: false });
    }
  });

  it('refuses bad input naming the field', async () => {
    expect(await failure(portal.admin.apps.create({ name: '', url: 'https://x.example.com/' }))).toMatchObject({ code: 'invalid_input', field: 'name' });
    expect(await failure(portal.admin.apps.create({ name: unique('a'), url: 'javascript:alert(1)' }))).toMatchObject({ code: 'invalid_input', field: 'url' });
    expect(await failure(portal.admin.apps.create({ name: unique('a'), url: 'https://x.example.com/', doclink: 'ftp://x' }))).toMatchObject({
      field: 'doclink',
    });
    expect(await failure(portal.admin.apps.create({ name: 'x'.repeat(201), url: 'https://x.example.com/' }))).toMatchObject({ field: 'name' });
    expect(await failure(portal.admin.apps.update({ id: -1, name: 'a', url: 'https://x.example.com/' }))).toMatchObject({ field: 'id' });
  });

  it('answers 409 for a duplicate name and 404 for an unknown id', async () => {
    const app = await createApp(portal.admin);
    expect(await failure(createApp(portal.admin, { name: app.name }))).toMatchObject({ code: 'conflict' });
    expect(await failure(portal.admin.apps.get(999999))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.apps.update({ ...app, id: 999999 }))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.apps.delete(999999))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.apps.users(999999))).toMatchObject({ code: 'not_found' });
  });

  it('lists only their own apps to users, and keeps admin calls from them', async () => {
    const mine = await createApp(portal.admin);
    const other = await createApp(portal.admin);
    const { api } = await portal.createUser({ apps: [mine] });
    expect(await api.apps.list()).toEqual([{ ...mine, favourite: false }]);
    expect(await api.apps.all()).toEqual([{ ...mine, favourite: false }]);
    expect(await failure(api.apps.get(other.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(api.apps.create({ name: unique('x'), url: 'https://x.example.com/' }))).toMatchObject({ code: 'forbidden' });
    expect(await failure(api.apps.delete(mine.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.apps.list())).toMatchObject({ code: 'unauthenticated' });
  });

  it("lists an app's users and removes one", async () => {
    const app = await createApp(portal.admin);
    const first = await portal.createUser({ apps: [app] });
    const second = await portal.createUser({ apps: [app] });
    const users = await portal.admin.apps.users(app.id);
    expect(users.map((user) => user.email)).toEqual([first.email, second.email].sort());
    await portal.admin.apps.removeUser(app.id, first.user.id);
    expect((await portal.admin.apps.users(app.id)).map((user) => user.email)).toEqual([second.email]);
    expect(await first.api.apps.list()).toEqual([]);
    expect(await failure(portal.admin.apps.removeUser(app.id, first.user.id))).toMatchObject({ code: 'not_found' });
  });

  it('deleting an app removes every grant of it', async () => {
    const app = await createApp(portal.admin);
    const { api, user } = await portal.createUser({ apps: [app] });
    await portal.admin.apps.delete(app.id);
    expect(await api.apps.list()).toEqual([]);
    expect(await portal.admin.users.apps(user.id)).toEqual([]);
  });
});
