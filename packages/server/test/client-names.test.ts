/**
 * Issue 12, point 7: a client's name is what apps read as `Remote-Groups`, a comma-separated
 * list. No name may reach them as `Admin` (or as a list holding it) unless it is the Admin client.
 */
import { describe, expect, it } from 'vitest';
import { failure, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

const LOOKALIKES = ['admin', 'ADMIN', '\uff21\uff24\uff2d\uff29\uff2e', '\u1d2c\u1d30\u1d39\u1d35\u1d3a'];
const REFUSED = [
  'Acme, Admin',
  'Acme,Admin',
  'Acme\uff0cAdmin',
  'Ad\u200bmin',
  'Ad\u200dmin',
  'Admin\u202e',
  'Ad\u00admin',
  'Acme\nAdmin',
  'Acme\u0085',
  '\u200b',
];

describe('client names that could reach apps as something else', () => {
  it('trims names, so " Admin" and "Admin " are the Admin client\'s name: a conflict', async () => {
    for (const name of [' Admin', 'Admin ', '\tAdmin\u00a0', 'Admin']) {
      expect(await failure(portal.admin.clients.create(name)), JSON.stringify(name)).toMatchObject({ code: 'conflict' });
    }
    const name = unique('Trimmed');
    expect(await portal.admin.clients.create(`  ${name} `)).toMatchObject({ name });
  });

  it('refuses commas, control and zero-width characters with a 400 naming the field', async () => {
    for (const name of REFUSED) {
      expect(await failure(portal.admin.clients.create(name)), JSON.stringify(name)).toMatchObject({ code: 'invalid_input', field: 'name' });
    }
    const response = await portal.fetch('/api/auth/v1/client', {
      method: 'POST',
      headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Acme, Admin' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_input', details: { field: 'name' } } });
  });

  it('refuses names that fold to Admin (NFKC, case) with a 409', async () => {
    for (const name of LOOKALIKES) {
      expect(await failure(portal.admin.clients.create(name)), name).toMatchObject({ code: 'conflict', field: 'name' });
    }
    const response = await portal.fetch('/api/auth/v1/client', {
      method: 'POST',
      headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'admin' }),
    });
    expect(response.status).toBe(409);
    const names = (await portal.admin.clients.list()).map((client) => client.name);
    expect(
      names.filter(
        (name) =>
          name
            .normalize('NFKC')
            .toLowerCase()
            .replace(/[^a-z]/g, '') === 'admin',
      ),
    ).toEqual(['Admin']);
  });

  it('applies the same rules to a rename', async () => {
    const client = await portal.admin.clients.create(unique('Renamed'));
    for (const name of REFUSED) {
      expect(await failure(portal.admin.clients.rename(client.id, name)), JSON.stringify(name)).toMatchObject({ code: 'invalid_input', field: 'name' });
    }
    for (const name of [...LOOKALIKES, ' Admin', 'Admin ', 'Admin']) {
      expect(await failure(portal.admin.clients.rename(client.id, name)), JSON.stringify(name)).toMatchObject({ code: 'conflict' });
    }
    const name = unique('Better');
    expect(await portal.admin.clients.rename(client.id, ` ${name} `)).toEqual({ id: client.id, name });
    expect(await portal.admin.clients.get(client.id)).toEqual({ id: client.id, name });
  });

  it('lets the Admin client keep its name and nothing else', async () => {
    const admin = (await portal.admin.clients.list()).find((client) => client.name === 'Admin')!;
    expect(await portal.admin.clients.rename(admin.id, ' Admin ')).toEqual(admin);
    expect(await failure(portal.admin.clients.rename(admin.id, 'admin'))).toMatchObject({ code: 'conflict' });
    expect(await failure(portal.admin.clients.rename(admin.id, unique('Staff')))).toMatchObject({ code: 'forbidden' });
  });

  it('a renamed client reaches apps under its new name, as one group', async () => {
    const client = await portal.admin.clients.create(unique('Groups'));
    const app = await portal.admin.apps.create({ name: unique('grp'), url: 'https://groups.example.com/' });
    const { token } = await portal.createUser({ client, apps: [app] });
    const name = unique('Renamed Group');
    await portal.admin.clients.rename(client.id, ` ${name}`);
    const response = await portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('remote-groups')).toBe(name);
    expect(await failure(portal.client(token).clients.rename(client.id, 'x'))).toMatchObject({ code: 'forbidden' });
  });
});
