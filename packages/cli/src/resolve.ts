/**
 * Resources named on the command line by id or by natural key: app name, client name, user
 * email, invite email. Only digits mean an id.
 */
import {
  ApiError,
  foldName,
  type App,
  type Client,
  type GrantableTeam,
  type GrantableUser,
  type PortalClient,
  type RegistrationToken,
  type Team,
  type User,
} from '@tools-portal/core';

const ID = /^[1-9][0-9]{0,15}$/;

export const isId = (ref: string) => ID.test(ref);

const missing = (what: string, ref: string) => new ApiError('not_found', `${what} ${ref} does not exist`);

/** How to find one kind of resource: by id, in the listing of all, and whether one is named by a ref. */
interface Finder<T> {
  what: string;
  /** Without it, ids too are found in the one listing. */
  byId?: (id: number) => Promise<T>;
  list: () => Promise<T[]>;
  named: (candidate: T, ref: string) => boolean;
}

/**
 * Resources named by refs. When every ref is an id (and the kind can be fetched by id), each is
 * fetched by id; otherwise one listing serves them all, matching ids by id and anything else with `named`.
 */
async function findAll<T extends { id: number }>({ what, byId, list, named }: Finder<T>, refs: string[]): Promise<T[]> {
  if (byId && refs.every(isId)) return Promise.all(refs.map((ref) => byId(Number(ref))));
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

/**
 * An app its owner manages, by id or name: an admin's list holds every app, a non-admin's only the
 * apps they may use, so a name not found there is looked for among the apps they own.
 */
export async function findManagedApp(api: PortalClient, ref: string): Promise<App> {
  if (isId(ref)) return api.apps.get(Number(ref));
  const listed = (await api.apps.all()).find((app) => app.name === ref);
  if (listed) return listed;
  const { owns } = await api.users.me();
  const owned = (await Promise.all(owns.map((id) => api.apps.get(id)))).find((app) => app.name === ref);
  if (!owned) throw missing('app', ref);
  return owned;
}

/**
 * Users to grant an app to or revoke it from, by id or exact email, through the app's own lookup
 * (`GET /app/{id}/grantable/user`: admins and the app's owners; docs/api.md, Teams, roles and
 * owners). An id is taken as given (the grant refuses an unknown one): owners may not read users.
 */
export function findGrantees(api: PortalClient, appId: number, refs: string[]): Promise<GrantableUser[]> {
  return Promise.all(refs.map((ref) => (isId(ref) ? { id: Number(ref), email: `user ${ref}` } : api.apps.grantableUser(appId, ref))));
}

/** Teams an app may be granted to, by id or name (as the portal compares team names): one listing for all. */
export function findGrantableTeams(api: PortalClient, appId: number, refs: string[]): Promise<GrantableTeam[]> {
  return findAll(
    {
      what: 'team',
      // The app's grantable teams come as one list only: ids and names are found in it.
      list: () => api.apps.grantableTeams(appId),
      named: sameTeamName,
    },
    refs,
  );
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
  const [team] = await findAll({ what: 'team', byId: (id) => api.teams.get(id), list: () => api.teams.list(), named: sameTeamName }, [ref]);
  return team;
}

const sameTeamName = (team: { name: string }, name: string) => foldName(team.name) === foldName(name.trim());

export async function findInvite(api: PortalClient, ref: string): Promise<RegistrationToken> {
  const invites = await api.invites.list();
  const email = ref.trim().toLowerCase();
  const invite = invites.find((candidate) => (isId(ref) ? candidate.id === Number(ref) : candidate.email.toLowerCase() === email));
  if (!invite) throw missing('invite', ref);
  return invite;
}
