/** How each resource looks as a Result: the JSON the API gave, a table for people, ids for --quiet. */
import type {
  AccessRequest,
  AccessToken,
  App,
  AppAccess,
  Client,
  GrantedApp,
  LogEntry,
  MailEntry,
  ManagedApp,
  RegistrationToken,
  Team,
  TeamApp,
  TeamMember,
  User,
  Webhook,
  WebhookDelivery,
} from '@tools-portal/core';
import type { Result } from './output.js';

export const appList = (apps: App[]): Result => ({
  json: apps,
  quiet: apps.map((app) => app.id),
  table: { head: ['id', 'name', 'url', 'description', 'category'], rows: apps.map((app) => [app.id, app.name, app.url, app.description, app.category]) },
});

/** A user's apps, with the user's roles, where the access comes from, and when it ends. */
export const grantedAppList = (apps: GrantedApp[]): Result => ({
  json: apps,
  quiet: apps.map((app) => app.id),
  table: {
    head: ['id', 'name', 'url', 'roles', 'via', 'expires', 'last used'],
    rows: apps.map((app) => [app.id, app.name, app.url, app.grantedRoles.join(', '), app.sources.join(', '), app.expires ?? 'never', app.lastUsed ?? 'never']),
  },
});

const ownersLine = (app: App | ManagedApp) =>
  'owners' in app ? [['owners', `users ${app.owners.users.join(', ') || 'none'}; teams ${app.owners.teams.join(', ') || 'none'}`] as [string, string]] : [];

export const appRecord = (app: App | ManagedApp, message?: string): Result => ({
  json: app,
  quiet: [app.id],
  record: [
    ['id', app.id],
    ['name', app.name],
    ['url', app.url],
    ['description', app.description],
    ['description (de)', app.descriptionDe],
    ['doclink', app.doclink],
    ['category', app.category],
    ['requestable', app.requestable ? 'yes' : 'no'],
    ['icon', app.icon ?? 'none'],
    ['roles', app.roles.join(', ') || 'none'],
    ...ownersLine(app),
  ],
  message,
});

/** `apps access`: everyone who may use an app, with roles and where each grant comes from. */
export const appAccessList = (users: AppAccess[]): Result => ({
  json: users,
  quiet: users.map((user) => user.id),
  table: {
    head: ['id', 'email', 'client', 'roles', 'via', 'expires', 'last used'],
    rows: users.map((user) => [
      user.id,
      user.email,
      user.client.name,
      user.roles.join(', '),
      user.sources.map((source) => (source.role ? `${source.source} (${source.role})` : source.source)).join(', '),
      user.sources.map((source) => source.expires ?? 'never').join(', '),
      user.lastUsed ?? 'never',
    ]),
  },
});

export const teamList = (teams: Team[]): Result => ({
  json: teams,
  quiet: teams.map((team) => team.id),
  table: { head: ['id', 'name', 'description'], rows: teams.map((team) => [team.id, team.name, team.description]) },
});

export const teamRecord = ({ team, members, apps }: { team: Team; members: TeamMember[]; apps: TeamApp[] }, message?: string): Result => ({
  json: { ...team, members, apps },
  quiet: [team.id],
  record: [
    ['id', team.id],
    ['name', team.name],
    ['description', team.description],
    ['members', members.map((member) => (member.expires ? `${member.email} (until ${member.expires})` : member.email)).join(', ')],
    ['apps', apps.map((app) => `${app.name}${app.role ? ` (${app.role})` : ''}${app.expires ? ` until ${app.expires}` : ''}`).join(', ')],
  ],
  message,
});

export const userList = (users: User[]): Result => ({
  json: users,
  quiet: users.map((user) => user.id),
  table: { head: ['id', 'email', 'name', 'client'], rows: users.map((user) => [user.id, user.email, user.name, user.client.name]) },
});

export const userRecord = (user: User, apps: App[]): Result => ({
  json: { ...user, apps },
  quiet: [user.id],
  record: [
    ['id', user.id],
    ['email', user.email],
    ['name', user.name],
    ['client', `${user.client.name} (${user.client.id})`],
    ['apps', apps.map((app) => app.name).join(', ')],
  ],
});

export const clientList = (clients: Client[]): Result => ({
  json: clients,
  quiet: clients.map((client) => client.id),
  table: { head: ['id', 'name'], rows: clients.map((client) => [client.id, client.name]) },
});

export const clientRecord = (client: Client, users: User[], message?: string): Result => ({
  json: { ...client, users },
  quiet: [client.id],
  record: [
    ['id', client.id],
    ['name', client.name],
    ['users', users.map((user) => user.email).join(', ')],
  ],
  message,
});

export const inviteList = (invites: RegistrationToken[], apps: App[]): Result => {
  const appName = (id: number) => apps.find((app) => app.id === id)?.name ?? String(id);
  return {
    json: invites,
    quiet: invites.map((invite) => invite.id),
    table: {
      head: ['id', 'email', 'client', 'apps', 'registration timestamp', 'expires'],
      rows: invites.map((invite) => [
        invite.id,
        invite.email,
        invite.client.name,
        invite.apps.map(appName).join(', '),
        invite.sent_timestamp,
        invite.expires_timestamp,
      ]),
    },
  };
};

export const keyList = (keys: AccessToken[]): Result => ({
  json: keys,
  quiet: keys.map((key) => key.id),
  table: {
    head: ['id', 'token', 'name', 'created', 'expires', 'last used'],
    rows: keys.map((key) => [key.id, key.token, key.name ?? '', key.createdTimestamp, key.expiresTimestamp ?? 'never', key.lastUsedTimestamp ?? 'never']),
  },
});

export const logList = (entries: LogEntry[]): Result => ({
  json: entries,
  quiet: entries.map((entry) => entry.id),
  table: {
    head: ['timestamp', 'client', 'user', 'event', 'type', 'by'],
    rows: entries.map((entry) => [entry.timestamp, entry.client, entry.user, entry.event, entry.type, entry.actor]),
  },
});

export const requestList = (requests: AccessRequest[]): Result => ({
  json: requests,
  quiet: requests.map((request) => request.id),
  table: {
    head: ['id', 'status', 'user', 'app', 'reason', 'requested', 'decided by', 'decision'],
    rows: requests.map((request) => [
      request.id,
      request.status,
      request.user.email,
      request.app.name,
      request.reason,
      request.createdTimestamp,
      request.decidedBy ?? '',
      request.decision ?? '',
    ]),
  },
});

export const mailList = (mails: MailEntry[]): Result => ({
  json: mails,
  quiet: mails.map((mail) => mail.id),
  table: {
    head: ['id', 'to', 'subject', 'status', 'attempts', 'last error', 'queued'],
    rows: mails.map((mail) => [mail.id, mail.to, mail.subject, mail.status, mail.attempts, mail.lastError ?? '', mail.createdTimestamp]),
  },
});

export const webhookList = (hooks: Webhook[]): Result => ({
  json: hooks,
  quiet: hooks.map((hook) => hook.id),
  table: {
    head: ['id', 'url', 'events', 'enabled', 'description', 'warning'],
    rows: hooks.map((hook) => [hook.id, hook.url, hook.events.join(', '), hook.enabled ? 'yes' : 'no', hook.description, hook.warning ?? '']),
  },
});

export const deliveryList = (deliveries: WebhookDelivery[]): Result => ({
  json: deliveries,
  quiet: deliveries.map((delivery) => delivery.id),
  table: {
    head: ['id', 'event', 'status', 'attempts', 'code', 'ms', 'error', 'created', 'delivered'],
    rows: deliveries.map((delivery) => [
      delivery.id,
      delivery.eventType,
      delivery.status,
      delivery.attempts,
      delivery.lastCode,
      delivery.durationMs,
      delivery.error ?? '',
      delivery.createdAt,
      delivery.deliveredAt ?? '',
    ]),
  },
});

/** A one-line answer to a change: the message for people, the id for --quiet. */
export const done = (message: string, json: unknown, quiet: Array<string | number> = []): Result => ({ json, quiet, message });
