/**
 * Access requests (docs/api.md, Access requests): a user asks for a requestable app (perhaps for
 * a role), an admin or one of the app's owners approves (granting it, perhaps until a date) or denies. One open request per user and app is
 * held by a unique index; a decision takes the request from `open` in one conditional update, so
 * of two admins deciding at once exactly one wins. Every step is an event-log row.
 */
import { ADMIN_CLIENT_NAME, conflict, notFound, type AccessRequest, type AccessRequestStatus, type CurrentUser, type RequestableApp } from '@tools-portal/core';
import type { Knex } from 'knex';
import { accessDecided, accessRequested } from '../../mail/templates.js';
import { adminRecipients, ownerRecipients, wordsForUser, wordsIn, type Recipient } from '../mail/recipients.js';
import { assertManagesApp, ownedAppIds } from '../apps/app-owners.js';
import { grantRole, rolesOf } from '../apps/app-roles.js';
import { checkFutureExpiry, grantIsLive, insertGrant, roleSuffix } from '../apps/apps.js';
import { accessOf, hasAccessNow } from './app-access.js';
import { logEvent } from '../log/audit.js';
import { withDb, type ServiceContext } from '../support/context.js';
import { enqueueMail, type MailPolicy } from '../mail/outbox.js';

/** How many decided requests admins see besides every open one. */
const DECIDED_SHOWN = 100;

interface RequestRow {
  id: number;
  app_id: number;
  app_name: string;
  user_id: number;
  user_email: string;
  client_name: string;
  reason: string;
  role: string | null;
  status: AccessRequestStatus;
  created_at: number | string;
  decided_at: number | string | null;
  decided_by: string | null;
  decision: string | null;
}

function requestsQuery(db: Knex) {
  return db('access_requests')
    .join('apps', 'apps.id', 'access_requests.app_id')
    .join('users', 'users.id', 'access_requests.user_id')
    .join('clients', 'clients.id', 'users.client_id')
    .select(
      'access_requests.id',
      'access_requests.app_id',
      'apps.name as app_name',
      'access_requests.user_id',
      'users.email as user_email',
      'clients.name as client_name',
      'access_requests.reason',
      'access_requests.role',
      'access_requests.status',
      'access_requests.created_at',
      'access_requests.decided_at',
      'access_requests.decided_by',
      'access_requests.decision',
    );
}

function toRequest(row: RequestRow): AccessRequest {
  const request: AccessRequest = {
    id: row.id,
    app: { id: row.app_id, name: row.app_name },
    user: { id: row.user_id, email: row.user_email },
    reason: row.reason,
    status: row.status,
    createdTimestamp: new Date(Number(row.created_at)).toISOString(),
  };
  if (row.role !== null) request.role = row.role;
  if (row.status !== 'open') {
    request.decidedTimestamp = new Date(Number(row.decided_at)).toISOString();
    request.decidedBy = row.decided_by ?? '';
    if (row.status === 'denied') request.decision = row.decision ?? '';
  }
  return request;
}

async function getRequest(db: Knex, id: number): Promise<RequestRow> {
  const row: RequestRow | undefined = await requestsQuery(db).where('access_requests.id', id).first();
  if (!row) throw notFound('access request', id);
  return row;
}

/** Requestable apps the user cannot use yet: never their URL. Admins may use every app already. */
export async function requestableApps(db: Knex, user: CurrentUser, now = Date.now()): Promise<RequestableApp[]> {
  if (user.admin) return [];
  const held = [...(await accessOf(db, user.id, now)).apps.keys()];
  return db('apps')
    .where('apps.requestable', true)
    .whereNotIn('apps.id', held)
    .select('apps.id', 'apps.name', 'apps.description', 'apps.description_de as descriptionDe', 'apps.category')
    .orderBy('apps.name');
}

/**
 * With mail configured, every admin and every owner of the app (directly or as an unexpired member
 * of an owning team) gets a mail per new request, and the user one per decision.
 */
async function deciders(db: Knex, { appId, now }: { appId: number; now: number }): Promise<Recipient[]> {
  const [admins, owners] = await Promise.all([adminRecipients(db), ownerRecipients(db, { appIds: [appId], now })]);
  const byEmail = new Map<string, Recipient>([...admins, ...owners].map(({ email, language }) => [email, { email, language }]));
  return [...byEmail.values()].sort((x, y) => (x.email < y.email ? -1 : 1));
}

/** The admins, each with the language of their mail. */
export const adminsQuery = (db: Knex) =>
  db('users')
    .join('clients', 'clients.id', 'users.client_id')
    .where('clients.name', ADMIN_CLIENT_NAME)
    .select('users.email', 'users.language')
    .orderBy('users.email');

/** The services' context of a signed-in user's request or an admin's decision. */
type RequestContext = ServiceContext<MailPolicy> & { actor: CurrentUser };

export async function createRequest(ctx: RequestContext, { appId, role, reason }: { appId: number; role?: string; reason: string }): Promise<AccessRequest> {
  const { actor: user, policy } = ctx;
  return await ctx.db.transaction(async (trx) => {
    const app = await trx('apps').where({ id: appId }).first('id', 'name', 'requestable', 'roles');
    // Not requestable looks exactly like not there: a user never learns of other apps.
    if (!app || !app.requestable) throw notFound('app', appId);
    if (role !== undefined) grantRole(rolesOf(app.roles), role);
    if (user.admin) throw conflict(`you may use app ${app.name} already`);
    const [row] = await trx('access_requests')
      .insert({ user_id: user.id, app_id: appId, reason, role: role ?? null, status: 'open', created_at: ctx.now() })
      .returning('id');
    // After the insert: an approval committed meanwhile is seen here (a request racing its approval).
    if (await hasAccessNow(trx, { userId: user.id, appId }, ctx.now())) throw conflict(`you may use app ${app.name} already`);
    await logEvent(trx, ctx, { type: 'access.request', event: `requested access to app ${app.name}${roleSuffix(role)}` });
    if (policy.mail) {
      const request = { email: user.email, app: app.name, reason, link: `${policy.publicUrl}/auth/#/accessrequests` };
      // Each admin and owner in their own language.
      for (const decider of await deciders(trx, { appId, now: ctx.now() })) {
        const mail = accessRequested(wordsIn(policy, decider.language), request);
        await enqueueMail(withDb(ctx, trx), { kind: 'access-request', to: decider.email, ...mail });
      }
    }
    return toRequest(await getRequest(trx, row.id));
  });
}

/**
 * The caller's own requests, newest first; for admins every open request and the last decided
 * ones; for owners also those of the apps they own.
 */
export async function listRequests(db: Knex, user: CurrentUser): Promise<AccessRequest[]> {
  const owned = user.admin ? undefined : await ownedAppIds(db, user.id);
  if (owned?.length === 0) {
    const rows: RequestRow[] = await requestsQuery(db).where('access_requests.user_id', user.id).orderBy('access_requests.id', 'desc');
    return rows.map(toRequest);
  }
  const ofManaged = (query: Knex.QueryBuilder) => (owned ? query.whereIn('access_requests.app_id', owned) : query);
  const open: RequestRow[] = await ofManaged(requestsQuery(db).where('access_requests.status', 'open')).orderBy('access_requests.id', 'asc');
  const decided: RequestRow[] = await ofManaged(requestsQuery(db).whereNot('access_requests.status', 'open'))
    .orderBy('access_requests.decided_at', 'desc')
    .orderBy('access_requests.id', 'desc')
    .limit(DECIDED_SHOWN);
  const own: RequestRow[] = owned ? await requestsQuery(db).where('access_requests.user_id', user.id).whereNotIn('access_requests.app_id', owned) : [];
  return [...open, ...decided, ...own].map(toRequest);
}

/**
 * Refuses (403) a caller who may not decide a request: admins decide every request, owners those
 * of their apps; others cannot tell a request that exists from one that does not.
 */
async function assertMayDecide(ctx: RequestContext, id: number): Promise<void> {
  if (ctx.actor.admin) return;
  const row: { app_id: number } | undefined = await ctx.db('access_requests').where({ id }).first('app_id');
  await assertManagesApp(ctx, row ? Number(row.app_id) : 0);
}

/** Takes an open request to a decision; only one decision can win. */
async function decide(
  ctx: RequestContext,
  { id, status, decision }: { id: number; status: 'approved' | 'denied'; decision: string | null },
): Promise<RequestRow> {
  const trx = ctx.db;
  const request = await getRequest(trx, id);
  const changed = await trx('access_requests').where({ id, status: 'open' }).update({ status, decided_at: ctx.now(), decided_by: ctx.actor.email, decision });
  if (changed === 0) throw conflict(`access request ${id} is ${request.status === 'open' ? 'being decided' : request.status} already`);
  return request;
}

/** Approves: grants the app with the approver's role, else the one asked for, else the default. */
export async function approveRequest(ctx: RequestContext, { id, role, expiresAt }: { id: number; role?: string; expiresAt?: number }): Promise<AccessRequest> {
  const { policy } = ctx;
  await assertMayDecide(ctx, id);
  checkFutureExpiry(expiresAt, ctx.now());
  return ctx.db.transaction(async (trx) => {
    const request = await decide(withDb(ctx, trx), { id, status: 'approved', decision: null });
    const app = (await trx('apps').where({ id: request.app_id }).first('roles')) as { roles: string };
    const granted = grantRole(rolesOf(app.roles), role ?? request.role ?? undefined);
    const already = await grantIsLive(trx('user_apps').where({ user_id: request.user_id, app_id: request.app_id }), ctx.now()).first('app_id');
    if (!already)
      await insertGrant(trx, {
        user: { id: request.user_id, email: request.user_email },
        app: { id: request.app_id, name: request.app_name },
        role: granted,
        expiresAt,
        grantedBy: ctx.actor.email,
      });
    await trx('access_requests')
      .where({ id })
      .update({ role: already ? request.role : granted });
    const until = expiresAt ? `, expiring ${new Date(expiresAt).toISOString()}` : '';
    await logEvent(trx, ctx, {
      type: 'access.approve',
      event: `approved access request ${id}: granted app ${request.app_name} to ${request.user_email}${already ? ' (had it already)' : `${roleSuffix(granted)}${until}`}`,
      subject: {
        client: request.client_name,
        user: request.user_email,
      },
    });
    if (policy.mail) {
      const mail = accessDecided(await wordsForUser(withDb(ctx, trx), request.user_email), {
        app: request.app_name,
        approved: true,
        expiresAt: already ? undefined : expiresAt,
        decision: '',
        link: `${policy.publicUrl}/auth/#/applist`,
      });
      await enqueueMail(withDb(ctx, trx), { kind: 'access-decision', to: request.user_email, ...mail });
    }
    return toRequest(await getRequest(trx, id));
  });
}

export async function denyRequest(ctx: RequestContext, { id, reason }: { id: number; reason: string }): Promise<AccessRequest> {
  const { policy } = ctx;
  await assertMayDecide(ctx, id);
  return ctx.db.transaction(async (trx) => {
    const request = await decide(withDb(ctx, trx), { id, status: 'denied', decision: reason });
    await logEvent(trx, ctx, {
      type: 'access.deny',
      event: `denied access request ${id} for app ${request.app_name} by ${request.user_email}${reason ? `: ${reason}` : ''}`,
      subject: {
        client: request.client_name,
        user: request.user_email,
      },
    });
    if (policy.mail) {
      const words = await wordsForUser(withDb(ctx, trx), request.user_email);
      const mail = accessDecided(words, { app: request.app_name, approved: false, decision: reason, link: `${policy.publicUrl}/auth/#/requests` });
      await enqueueMail(withDb(ctx, trx), { kind: 'access-decision', to: request.user_email, ...mail });
    }
    return toRequest(await getRequest(trx, id));
  });
}
