/**
 * Many writers at once, on each database: 50 parallel invites, registrations and grants lose
 * nothing and never answer 500; 50 parallel copies of one write succeed exactly once.
 */
import type { App } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { createApp, startTestPortal, unique, useTestPortal, type TestUser } from './support/support.js';

const WRITERS = 50;

// Registrations hash a password each: the hashing pool's queue must hold every writer, or the
// ones past it answer 503 (hash-pool.test.ts tests that bound) instead of racing for the invite.
const portal = useTestPortal({ PASSWORD_HASH_QUEUE: String(WRITERS * 2) });

/** Settles every call; answers the values, and the error codes of the failures. */
async function settle<T>(calls: Promise<T>[]): Promise<{ values: T[]; codes: string[] }> {
  const results = await Promise.allSettled(calls);
  return {
    values: results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])),
    codes: results.flatMap((result) => (result.status === 'rejected' ? [String((result.reason as { code?: string }).code)] : [])),
  };
}

describe(`${WRITERS} parallel writers`, () => {
  it('invites for different emails: every one is made and listed', async () => {
    const owner = await portal.admin.clients.create(unique('client'));
    const app = await createApp(portal.admin);
    const emails = Array.from({ length: WRITERS }, () => `${unique('invitee')}@example.com`);
    const { values, codes } = await settle(emails.map((email) => portal.admin.invites.create({ email, clientid: owner.id, apps: [app.id] })));
    expect(codes).toEqual([]);
    expect(new Set(values.map((invite) => invite.token)).size).toBe(WRITERS);
    const listed = (await portal.admin.invites.list()).filter((invite) => emails.includes(invite.email));
    expect(listed).toHaveLength(WRITERS);
    for (const invite of listed) expect(invite.apps).toEqual([app.id]);
  });

  it('registrations and then grants of different apps to them: nothing lost', async () => {
    const owner = await portal.admin.clients.create(unique('client'));
    const emails = Array.from({ length: WRITERS }, () => `${unique('registrant')}@example.com`);
    const invites = await Promise.all(emails.map((email) => portal.admin.invites.create({ email, clientid: owner.id, apps: [] })));
    const registered = await settle(invites.map((invite) => portal.anonymous.auth.register({ Token: invite.token, Password: 'a-fine-password' })));
    expect(registered.codes).toEqual([]);
    const users = await portal.admin.clients.users(owner.id);
    expect(users.map((user) => user.email).sort()).toEqual([...emails].sort());

    const apps: App[] = [];
    for (let index = 0; index < 5; index++) apps.push(await createApp(portal.admin));
    const grants = users.map((user, index) => ({ user, app: apps[index % apps.length] }));
    const granted = await settle(grants.map(({ user, app }) => portal.admin.users.grant(user.id, app.id)));
    expect(granted.codes).toEqual([]);
    for (const app of apps) {
      const expected = grants
        .filter((grant) => grant.app.id === app.id)
        .map((grant) => grant.user.email)
        .sort();
      expect((await portal.admin.apps.users(app.id)).map((user) => user.email)).toEqual(expected);
    }
  });

  it('grants of many apps to one user: every one holds', async () => {
    const { user, api }: TestUser = await portal.createUser();
    const apps = await Promise.all(Array.from({ length: WRITERS }, () => createApp(portal.admin)));
    const { codes } = await settle(apps.map((app) => portal.admin.users.grant(user.id, app.id)));
    expect(codes).toEqual([]);
    expect((await api.apps.list()).map((app) => app.id).sort((a, b) => a - b)).toEqual(apps.map((app) => app.id).sort((a, b) => a - b));
  });

  it('the same invite, grant or client 50 times at once: one succeeds, the rest are conflicts', async () => {
    const owner = await portal.admin.clients.create(unique('client'));
    const email = `${unique('once')}@example.com`;
    const invites = await settle(Array.from({ length: WRITERS }, () => portal.admin.invites.create({ email, clientid: owner.id, apps: [] })));
    expect(invites.values).toHaveLength(1);
    expect(invites.codes).toEqual(Array(WRITERS - 1).fill('conflict'));

    const { user } = await portal.createUser();
    const app = await createApp(portal.admin);
    const grants = await settle(Array.from({ length: WRITERS }, () => portal.admin.users.grant(user.id, app.id)));
    expect(grants.values).toHaveLength(1);
    expect(grants.codes).toEqual(Array(WRITERS - 1).fill('conflict'));
    expect((await portal.admin.users.apps(user.id)).map(({ id, grantedRoles, sources }) => ({ id, grantedRoles, sources }))).toEqual([
      { id: app.id, grantedRoles: [], sources: ['direct'] },
    ]);

    const name = unique('client');
    const clients = await settle(Array.from({ length: WRITERS }, () => portal.admin.clients.create(name)));
    expect(clients.values).toHaveLength(1);
    expect(clients.codes).toEqual(Array(WRITERS - 1).fill('conflict'));
  });

  it('one invite registered 50 times at once: one user, the rest are conflicts', async () => {
    const owner = await portal.admin.clients.create(unique('client'));
    const email = `${unique('race')}@example.com`;
    const invite = await portal.admin.invites.create({ email, clientid: owner.id, apps: [] });
    const { values, codes } = await settle(
      Array.from({ length: WRITERS }, () => portal.anonymous.auth.register({ Token: invite.token, Password: 'a-fine-password' })),
    );
    expect(values).toHaveLength(1);
    expect(codes).toEqual(Array(WRITERS - 1).fill('conflict'));
    expect((await portal.admin.clients.users(owner.id)).map((user) => user.email)).toEqual([email]);
  });
});

describe('a small pool (DATABASE_POOL_MAX=2)', () => {
  it('serves 40 parallel writers: requests queue for a connection, none holds one while waiting for another', async () => {
    const small = await startTestPortal({ DATABASE_POOL_MAX: '2' });
    try {
      if (small.deps.db.client.config.client === 'pg') expect(small.deps.db.client.pool.max).toBe(2);
      const owner = await small.admin.clients.create(unique('client'));
      const { user } = await small.createUser();
      // Few enough that queueing stays well inside the 5 s wait for a connection on a busy machine.
      const count = 20;
      const apps: App[] = [];
      for (let index = 0; index < count; index++) apps.push(await createApp(small.admin));
      const emails = Array.from({ length: count }, () => `${unique('small')}@example.com`);
      const { codes } = await settle<unknown>([
        ...emails.map((email) => small.admin.invites.create({ email, clientid: owner.id, apps: [apps[0].id] })),
        ...apps.map((app) => small.admin.users.grant(user.id, app.id)),
      ]);
      expect(codes).toEqual([]);
      expect(await small.admin.users.apps(user.id)).toHaveLength(count);
      expect((await small.admin.invites.list()).filter((invite) => emails.includes(invite.email))).toHaveLength(count);
    } finally {
      await small.close();
    }
  });
});
