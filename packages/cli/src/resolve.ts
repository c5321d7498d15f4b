/**
 * Resources named on the command line by id or by natural key: app name, client name, user
 * email, invite email. Only digits mean an id.
 */
import { ApiError, foldName, type App, type Client, type PortalClient, type RegistrationToken, type Team, type User } from '@tools-portal/core';

const ID = /^[1-9][0-9]{0,15}$/;

export const isId = (ref: string) => ID.test(ref);

const missing = (what: string, ref: string) => new ApiError('not_found', `${what} ${ref} does not exist`);

/** How to find one kind of resource: by id, in the listing of all, and whether one is named by a ref. */
interface Finder<T> {
  what: string;
  byId: (id: number) => Promise<T>;
  list: () => Promise<T[]>;
  named: (candidate: T, ref: string) => boolean;
}

/**
 * Resources named by refs. When every ref is an id, each is fetched by id; otherwise one listing
 * serves them all, matching ids by id and anything else with `named`.
 */
async function findAll<T extends { id: number }>({ what, byId, list, named }: Finder<T>, refs: string[]): Promise<T[]> {
  if (refs.every(isId)) return Promise.all(refs.map((ref) => byId(Number(ref))));
  const all = await list();
  return refs.map((ref) => {
    const found = all.find((candidate) => (isId(ref) ? candidate.id === Number(ref) : named(candidate, ref)));
    if (!found) throw missing(what, ref);
    return found;
  });
}

const sameEmail = (user: User, ref: string) => user.email.toLowerCase() === ref.trim().toLowerCase();

/** Apps by id or name, with one listing for all names. */
export function findApps(api: PortalClient, refs: string[]): Promise<App[]> {
  return findAll({ what: 'app', byId: (id): Promise<App> => api.apps.get(id), list: () => api.apps.all(), named: (app, ref) => app.name === ref }, refs);
}

/** Users by id or email (any case), with one listing for all emails. */
export function findUsers(api: PortalClient, refs: string[]): Promise<User[]> {
  return findAll({ what: 'user', byId: (id) => api.users.get(id), list: () => api.users.list(), named: sameEmail }, refs);
}

export async function findApp(api: PortalClient, ref: string): Promise<App> {
  return (await findApps(api, [ref]))[0];
}

export async function findUser(api: PortalClient, ref: string): Promise<User> {
  return (await findUsers(api, [ref]))[0];
}

export async function findClient(api: PortalClient, ref: string): Promise<Client> {
  const [client] = await findAll(
    { what: 'client', byId: (id) => api.clients.get(id), list: () => api.clients.list(), named: (client, name) => client.name === name },
    [ref],
  );
  return client;
}

/** A team by id or name (compared as the portal compares team names). */
export async function findTeam(api: PortalClient, ref: string): Promise<Team> {
  return (await findTeams(api, [ref]))[0];
}

export function findTeams(api: PortalClient, refs: string[]): Promise<Team[]> {
  return findAll(
    { what: 'team', byId: (id) => api.teams.get(id), list: () => api.teams.list(), named: (team, name) => foldName(team.name) === foldName(name.trim()) },
    refs,
  );
}

export async function findInvite(api: PortalClient, ref: string): Promise<RegistrationToken> {
  const invites = await api.invites.list();
  const email = ref.trim().toLowerCase();
  const invite = invites.find((candidate) => (isId(ref) ? candidate.id === Number(ref) : candidate.email.toLowerCase() === email));
  if (!invite) throw missing('invite', ref);
  return invite;
}
