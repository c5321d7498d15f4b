/**
 * The portal's setup as a document (docs/cli.md, "The portal's setup as a file"): what `GET
 * /config` exports and what a plan compares a file with. Every field the document has is written,
 * so that planning an export finds nothing to change. Icons are named by their content
 * (`sha256:…`); expired grants and memberships, used and expired invitations are not the setup.
 */
import { createHash } from 'node:crypto';
import type { SetupDocument, SetupExport } from '@tools-portal/core';
import type { Knex } from 'knex';
import { rolesOf } from '../apps/app-roles.js';

const iso = (ms: number | string | null) => (ms === null ? undefined : new Date(Number(ms)).toISOString());
const live = (now: number) => (query: Knex.QueryBuilder, column: string) => query.where((q) => q.whereNull(column).orWhere(column, '>', now));

/** An icon's name in a document: its content's SHA-256. */
export const iconDigest = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

interface AppRow {
  id: number;
  name: string;
  url: string;
  description: string;
  doclink: string;
  category: string;
  requestable: boolean | number;
  roles: string | null;
  icon_version: number | string | null;
}

interface OidcRow {
  app_id: number;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  public: boolean | number;
  device: boolean | number;
}

type Names = Map<number, string>;
const byId = (rows: { id: number; name: string }[]): Names => new Map(rows.map((row) => [Number(row.id), row.name]));
const groupBy = <T>(rows: T[], key: (row: T) => number): Map<number, T[]> => {
  const groups = new Map<number, T[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
};
const named = (names: Names, id: number | string) => names.get(Number(id)) ?? '';

/** The portal now, as a document; with `withIcons`, the icons' bytes too (the CLI writes them beside the file). */
export async function exportSetup(db: Knex, { now, withIcons }: { now: number; withIcons: boolean }): Promise<SetupExport> {
  const isLive = live(now);
  const [clients, users, apps, teams, icons, oidc] = await Promise.all([
    db('clients').select('id', 'name').orderBy('name') as Promise<{ id: number; name: string }[]>,
    db('users').select('id', 'email as name') as Promise<{ id: number; name: string }[]>,
    db('apps').select('id', 'name', 'url', 'description', 'doclink', 'category', 'requestable', 'roles', 'icon_version').orderBy('name') as Promise<AppRow[]>,
    db('teams').select('id', 'name', 'description').orderBy('name') as Promise<{ id: number; name: string; description: string }[]>,
    db('app_icons').select('app_id', 'content_type', 'data') as Promise<{ app_id: number; content_type: string; data: Buffer | Uint8Array }[]>,
    db('oidc_clients').select('app_id', 'redirect_uris', 'post_logout_redirect_uris', 'public', 'device') as Promise<OidcRow[]>,
  ]);
  const [members, userGrants, teamGrants, ownerUsers, ownerTeams, invites, inviteApps] = await Promise.all([
    isLive(db('team_members').select('team_id', 'user_id', 'expires_at'), 'expires_at') as Promise<
      { team_id: number; user_id: number; expires_at: number | null }[]
    >,
    isLive(db('user_apps').select('app_id', 'user_id', 'role', 'expires_at'), 'expires_at') as Promise<
      { app_id: number; user_id: number; role: string | null; expires_at: number | null }[]
    >,
    isLive(db('team_apps').select('app_id', 'team_id', 'role', 'expires_at'), 'expires_at') as Promise<
      { app_id: number; team_id: number; role: string | null; expires_at: number | null }[]
    >,
    db('app_owner_users').select('app_id', 'user_id') as Promise<{ app_id: number; user_id: number }[]>,
    db('app_owner_teams').select('app_id', 'team_id') as Promise<{ app_id: number; team_id: number }[]>,
    db('invites').whereNull('used_at').where('expires_at', '>', now).select('id', 'email', 'client_id').orderBy('email') as Promise<
      { id: number; email: string; client_id: number }[]
    >,
    db('invite_apps').select('invite_id', 'app_id') as Promise<{ invite_id: number; app_id: number }[]>,
  ]);
  const clientNames = byId(clients);
  const userEmails = byId(users);
  const appNames = byId(apps);
  const teamNames = byId(teams.map(({ id, name }) => ({ id, name })));
  const iconOf = new Map(icons.map((icon) => [Number(icon.app_id), { type: icon.content_type, data: Buffer.from(icon.data) }]));
  const oidcOf = new Map(oidc.map((row) => [Number(row.app_id), row]));
  const ownersByApp = { users: groupBy(ownerUsers, (row) => Number(row.app_id)), teams: groupBy(ownerTeams, (row) => Number(row.app_id)) };
  const membersByTeam = groupBy(members, (row) => Number(row.team_id));
  const appsByInvite = groupBy(inviteApps, (row) => Number(row.invite_id));
  const sorted = (list: string[]) => list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  const exportedIcons: SetupExport['icons'] = [];
  const document: SetupDocument = {
    version: 1,
    clients: clients.map((client) => ({ name: client.name })),
    apps: apps.map((row) => {
      const id = Number(row.id);
      const icon = iconOf.get(id);
      const openid = oidcOf.get(id);
      const digest = icon && iconDigest(icon.data);
      if (icon && digest && withIcons) exportedIcons.push({ path: digest, type: icon.type, data: icon.data.toString('base64') });
      return {
        name: row.name,
        url: row.url,
        description: row.description,
        doclink: row.doclink,
        category: row.category,
        requestable: Boolean(row.requestable),
        roles: rolesOf(row.roles),
        owners: {
          users: sorted((ownersByApp.users.get(id) ?? []).map((owner) => named(userEmails, owner.user_id))),
          teams: sorted((ownersByApp.teams.get(id) ?? []).map((owner) => named(teamNames, owner.team_id))),
        },
        ...(digest ? { icon: digest } : {}),
        ...(openid
          ? {
              openid: {
                redirect_uris: JSON.parse(openid.redirect_uris) as string[],
                post_logout_redirect_uris: JSON.parse(openid.post_logout_redirect_uris) as string[],
                public: Boolean(openid.public),
                device: Boolean(openid.device),
              },
            }
          : {}),
      };
    }),
    teams: teams.map((team) => ({
      name: team.name,
      description: team.description,
      members: (membersByTeam.get(Number(team.id)) ?? [])
        .map((member) => ({ email: named(userEmails, member.user_id), ...(member.expires_at === null ? {} : { expires: iso(member.expires_at) }) }))
        .sort((a, b) => (a.email < b.email ? -1 : 1)),
    })),
    grants: [
      ...userGrants.map((grant) => ({
        app: named(appNames, grant.app_id),
        user: named(userEmails, grant.user_id),
        ...(grant.role === null ? {} : { role: grant.role }),
        ...(grant.expires_at === null ? {} : { expires: iso(grant.expires_at) }),
      })),
      ...teamGrants.map((grant) => ({
        app: named(appNames, grant.app_id),
        team: named(teamNames, grant.team_id),
        ...(grant.role === null ? {} : { role: grant.role }),
        ...(grant.expires_at === null ? {} : { expires: iso(grant.expires_at) }),
      })),
    ].sort((a, b) => {
      const ka = `${a.app}\u0000${'user' in a ? a.user : `~${(a as { team: string }).team}`}`;
      const kb = `${b.app}\u0000${'user' in b ? b.user : `~${(b as { team: string }).team}`}`;
      return ka < kb ? -1 : 1;
    }),
    invites: invites.map((invite) => ({
      email: invite.email,
      client: named(clientNames, invite.client_id),
      apps: sorted((appsByInvite.get(Number(invite.id)) ?? []).map((row) => named(appNames, row.app_id))),
    })),
  };
  return { document, icons: exportedIcons };
}
