/**
 * Unique violations, whichever dialect reports them, become one conflict naming the field
 * (details.field), translated once for every service (db/errors.ts), also when requests race.
 */
import { generateApiKey } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { translateDatabaseError } from '../src/db/errors.js';
import { createApp, failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

describe('conflicts', () => {
  it('name the field of the clashing value', async () => {
    const first = await createApp(portal.admin);
    const second = await createApp(portal.admin);
    expect(await failure(createApp(portal.admin, { name: first.name }))).toEqual({
      code: 'conflict',
      message: 'an app with this name already exists',
      field: 'name',
    });
    expect(await failure(portal.admin.apps.update({ ...second, name: first.name }))).toMatchObject({ code: 'conflict', field: 'name' });

    const { user, api } = await portal.createUser();
    await portal.admin.users.grant(user.id, first.id);
    expect(await failure(portal.admin.users.grant(user.id, first.id))).toEqual({ code: 'conflict', message: 'the user already has this app', field: 'appid' });

    const key = generateApiKey();
    await api.accessTokens.create(key);
    expect(await failure(api.accessTokens.create(key))).toEqual({ code: 'conflict', message: 'this API key already exists', field: 'token' });

    const client = await portal.admin.clients.create(unique('client'));
    const other = await portal.admin.clients.create(unique('client'));
    const clientConflict = { code: 'conflict', message: 'a client with this name already exists', field: 'name' };
    expect(await failure(portal.admin.clients.create(client.name))).toEqual(clientConflict);
    expect(await failure(portal.admin.clients.rename(other.id, client.name))).toEqual(clientConflict);

    const email = `${unique('invitee')}@example.com`;
    await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    expect(await failure(portal.admin.invites.create({ email, clientid: client.id, apps: [] }))).toMatchObject({ code: 'conflict', field: 'email' });
  });

  it('say which Google account clashes, when two users would share one', async () => {
    const [first, second] = [await portal.createUser(), await portal.createUser()];
    const sub = unique('google-sub');
    const users = portal.deps.db('users');
    await users.clone().where({ id: first.user.id }).update({ google_sub: sub });
    const caught = await users
      .clone()
      .where({ id: second.user.id })
      .update({ google_sub: sub })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(translateDatabaseError(caught)).toMatchObject({ code: 'conflict', message: 'this Google account is linked to another user' });
  });

  it('are one winner and conflicts for the rest when creations race', async () => {
    const name = unique('race');
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => createApp(portal.admin, { name })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results.filter((result) => result.status === 'rejected')) {
      expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict', details: { field: 'name' } });
    }
  });
});
