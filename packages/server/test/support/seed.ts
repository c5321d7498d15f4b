/**
 * Records made in the portal's own process through the services that the API's routes call, without
 * HTTP: for tests that make hundreds of them to test something else (the permission matrices). Each
 * is what the API would make and answer, with the admin as the actor; only the event log's user
 * agent says `test seed`. Like any write through the API (middleware/forget-on-write.ts), each
 * empties the portal's auth cache.
 */
import type { App, Client, CurrentUser, RegistrationToken } from '@tools-portal/core';
import { createApp } from '../../src/services/apps/apps.js';
import { registerWithPassword } from '../../src/services/sign-in/login.js';
import { createClient } from '../../src/services/users/clients.js';
import { createInvite } from '../../src/services/users/invites.js';
import { currentUserById, findUserByEmail } from '../../src/services/users/users.js';
import { ADMIN_EMAIL, unique, USER_PASSWORD, type TestPortal, type TestUser } from './support.js';

const ORIGIN = { ip: '127.0.0.1', userAgent: 'test seed' };

const admins = new WeakMap<TestPortal, Promise<CurrentUser>>();

function adminOf(portal: TestPortal): Promise<CurrentUser> {
  let admin = admins.get(portal);
  if (!admin) {
    admin = findUserByEmail(portal.deps.db, ADMIN_EMAIL).then((row) => currentUserById(portal.deps.db, row!.id));
    admins.set(portal, admin);
  }
  return admin;
}

/** The services' context of the admin's calls. */
async function asAdmin(portal: TestPortal) {
  const { db, config } = portal.deps;
  return { db, policy: config, now: Date.now, actor: await adminOf(portal), ...ORIGIN };
}

/**
 * A user of `client` (else of a new client) with `apps`, invited by the admin and registered, as
 * portal.createUser makes one; its `user` is as a sign-in answers it (id, email, name, client, admin), without the details
 * that /user/me adds (second factors, language, teams, owned apps).
 */
export async function seedUser(portal: TestPortal, options: { client?: Client; apps?: App[]; password?: string } = {}): Promise<TestUser> {
  const { db, config, hasher } = portal.deps;
  const email = `${unique('user')}@example.com`;
  const password = options.password ?? USER_PASSWORD;
  const invite = await seedInvite(portal, { email, client: options.client ?? (await seedClient(portal)), apps: options.apps });
  const { token, user } = await registerWithPassword({ db, policy: config, now: Date.now, actor: null, hasher, ...ORIGIN }, { token: invite.token, password });
  await portal.deps.authCache.clear();
  return { api: portal.client(token), token, user, email, password };
}

/** The admin's invite of `email` (a new one when not given) into `client` with `apps`, as POST /registrationtoken answers it. */
export async function seedInvite(portal: TestPortal, options: { client: Client; email?: string; apps?: App[] }): Promise<RegistrationToken> {
  const email = options.email ?? `${unique('invited')}@example.com`;
  const invite = await createInvite(await asAdmin(portal), { email, clientid: options.client.id, apps: (options.apps ?? []).map((app) => app.id) });
  await portal.deps.authCache.clear();
  return invite;
}

/** A client, as the admin's POST /client answers it. */
export async function seedClient(portal: TestPortal, name = unique('client')): Promise<Client> {
  const client = await createClient(await asAdmin(portal), name);
  await portal.deps.authCache.clear();
  return client;
}

/** An app with the API's defaults, as createApp (./support.ts) answers it: without its owners. */
export async function seedApp(portal: TestPortal): Promise<App> {
  const name = unique('app');
  const fields = { name, url: `https://${name}.example.com/`, description: '', descriptionDe: '', doclink: '', category: '', requestable: false };
  const { owners, ...app } = await createApp(await asAdmin(portal), fields);
  await portal.deps.authCache.clear();
  return app;
}
