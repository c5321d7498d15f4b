/**
 * Resources named on the command line by id or by natural key: app name, client name, user
 * email, invite email. Only digits mean an id.
 */
import { ApiError, type App, type Client, type PortalClient, type RegistrationToken, type User } from '@tools-portal/core';

const ID = /^[1-9][0-9]{0,15}$/;

export const isId = (ref: string) => ID.test(ref);

const missing = (what: string, ref: string) => new ApiError('not_found', `${what} ${ref} does not exist`);

export async function findApp(api: PortalClient, ref: string): Promise<App> {
  if (isId(ref)) return api.apps.get(Number(ref));
  const app = (await api.apps.all()).find((candidate) => candidate.name === ref);
  if (!app) throw missing('app', ref);
  return app;
}

export async function findUser(api: PortalClient, ref: string): Promise<User> {
  if (isId(ref)) return api.users.get(Number(ref));
  const email = ref.trim().toLowerCase();
  const user = (await api.users.list()).find((candidate) => candidate.email.toLowerCase() === email);
  if (!user) throw missing('user', ref);
  return user;
}

export async function findClient(api: PortalClient, ref: string): Promise<Client> {
  if (isId(ref)) return api.clients.get(Number(ref));
  const client = (await api.clients.list()).find((candidate) => candidate.name === ref);
  if (!client) throw missing('client', ref);
  return client;
}

export async function findInvite(api: PortalClient, ref: string): Promise<RegistrationToken> {
  const invites = await api.invites.list();
  const email = ref.trim().toLowerCase();
  const invite = invites.find((candidate) => (isId(ref) ? candidate.id === Number(ref) : candidate.email.toLowerCase() === email));
  if (!invite) throw missing('invite', ref);
  return invite;
}

/** Several apps at once, with one listing for all names. */
export async function findApps(api: PortalClient, refs: string[]): Promise<App[]> {
  if (refs.every(isId)) return Promise.all(refs.map((ref) => api.apps.get(Number(ref))));
  const all = await api.apps.all();
  return refs.map((ref) => {
    const app = all.find((candidate) => (isId(ref) ? candidate.id === Number(ref) : candidate.name === ref));
    if (!app) throw missing('app', ref);
    return app;
  });
}

export async function findUsers(api: PortalClient, refs: string[]): Promise<User[]> {
  if (refs.every(isId)) return Promise.all(refs.map((ref) => api.users.get(Number(ref))));
  const all = await api.users.list();
  return refs.map((ref) => {
    const email = ref.trim().toLowerCase();
    const user = all.find((candidate) => (isId(ref) ? candidate.id === Number(ref) : candidate.email.toLowerCase() === email));
    if (!user) throw missing('user', ref);
    return user;
  });
}
