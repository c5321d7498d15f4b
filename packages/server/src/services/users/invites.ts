/**
 * Invitations (registration tokens): single use, expiring, one open invite per email, and never
 * for an email that already has a user.
 */
import {
  ApiError,
  conflict,
  invalidInput,
  notFound,
  randomToken,
  registrationLink,
  type Language,
  type RegistrationToken,
  type RegistrationTokenStatus,
} from '@tools-portal/core';
import type { Knex } from 'knex';
import { invitation } from '../../mail/templates.js';
import { logEvent } from '../log/audit.js';
import { withDb, type ServiceContext } from '../support/context.js';
import { getClient } from './clients.js';
import { enqueueMail, type MailPolicy } from '../mail/outbox.js';
import { hitRateLimit, type RateLimit } from '../support/rate-limits.js';
import { wordsIn } from '../mail/recipients.js';
import { findUserByEmail } from './users.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface InviteRow {
  id: number;
  email: string;
  token: string;
  client_id: number;
  client_name: string;
  sent_at: number;
  expires_at: number;
  used_at: number | null;
  /** Whether the link was sent to the invitee by mail (the outbox): using it proves the mailbox. */
  mailed: boolean | number;
  link_app_id: number | null;
  /** The name of the app the link names, while that app exists. */
  link_app_name: string | null;
  /** The invitation mail's language; null: DEFAULT_LANGUAGE. The user registering takes it as their choice. */
  language: Language | null;
}

function invitesQuery(db: Knex) {
  return db('invites')
    .join('clients', 'clients.id', 'invites.client_id')
    .leftJoin('apps as link_app', 'link_app.id', 'invites.link_app_id')
    .select('invites.*', 'clients.name as client_name', 'link_app.name as link_app_name');
}

/** The invite's registration link: through the app it names (the first app as sent), else the portal. */
function inviteLink(publicUrl: string, row: Pick<InviteRow, 'token' | 'link_app_name'>): string {
  return registrationLink(publicUrl, row.token, row.link_app_name ?? undefined);
}

async function appIdsOfInvites(db: Knex, inviteIds: number[]): Promise<Map<number, number[]>> {
  const byInvite = new Map<number, number[]>(inviteIds.map((id) => [id, []]));
  if (inviteIds.length === 0) return byInvite;
  const rows: { invite_id: number; app_id: number }[] = await db('invite_apps').whereIn('invite_id', inviteIds).orderBy('app_id');
  for (const row of rows) byInvite.get(row.invite_id)?.push(row.app_id);
  return byInvite;
}

function toRegistrationToken(row: InviteRow, apps: number[], publicUrl: string): RegistrationToken {
  return {
    id: row.id,
    email: row.email,
    token: row.token,
    sent_timestamp: new Date(Number(row.sent_at)).toISOString(),
    expires_timestamp: new Date(Number(row.expires_at)).toISOString(),
    client: { id: row.client_id, name: row.client_name },
    apps,
    language: row.language,
    link: inviteLink(publicUrl, row),
  };
}

/** The open (unused) invites, newest first; expired ones stay listed until deleted or replaced. */
export async function listInvites(db: Knex, publicUrl: string): Promise<RegistrationToken[]> {
  const rows: InviteRow[] = await invitesQuery(db).whereNull('invites.used_at').orderBy('invites.id', 'desc');
  const apps = await appIdsOfInvites(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRegistrationToken(row, apps.get(row.id) ?? [], publicUrl));
}

/**
 * Creates an invite; with `send`, its link is mailed to the invitee (queued in the same
 * transaction), which needs mail configured.
 */
export async function createInvite(
  ctx: ServiceContext<{ inviteTtlDays: number } & MailPolicy>,
  input: { email: string; clientid: number; apps: number[]; send?: boolean; language?: Language | null },
): Promise<RegistrationToken> {
  const options = ctx.policy;
  if (input.send && !options.mail) throw invalidInput('send', 'mail is not configured on this server (SMTP_URL)');
  const appIds = [...new Set(input.apps)];
  const ttlDays = options.inviteTtlDays;
  return await ctx.db.transaction(async (trx) => {
    const client = await getClient(trx, input.clientid);
    if (await findUserByEmail(trx, input.email)) throw conflict(`a user with email ${input.email} already exists`);
    if (appIds.length > 0) {
      const found: { id: number }[] = await trx('apps').whereIn('id', appIds).select('id');
      const missing = appIds.find((id) => !found.some((app) => app.id === id));
      if (missing !== undefined) throw notFound('app', missing);
    }
    const now = ctx.now();
    // An expired open invite for the same email gives way to the new one.
    await trx('invites').where({ email: input.email }).whereNull('used_at').where('expires_at', '<=', now).delete();
    const [row] = await trx('invites')
      .insert({
        email: input.email,
        token: randomToken(32),
        client_id: client.id,
        sent_at: now,
        expires_at: now + ttlDays * DAY_MS,
        link_app_id: appIds[0] ?? null,
        mailed: Boolean(input.send),
        language: input.language ?? null,
      })
      .returning('id');
    if (appIds.length > 0) await trx('invite_apps').insert(appIds.map((app_id) => ({ invite_id: row.id, app_id })));
    const created: InviteRow = await invitesQuery(trx).where('invites.id', row.id).first();
    const invite = toRegistrationToken(
      created,
      appIds.sort((a, b) => a - b),
      options.publicUrl,
    );
    if (input.send) {
      const mail = invitation(wordsIn(options, input.language), {
        email: invite.email,
        client: client.name,
        link: invite.link,
        expiresAt: Number(created.expires_at),
      });
      await enqueueMail(withDb(ctx, trx), { kind: 'invite', to: invite.email, ...mail });
    }
    const how = input.send ? ' (link sent by mail)' : '';
    await logEvent(trx, ctx, {
      type: 'invite.create',
      event: `invited ${input.email} to client ${client.name}${how}`,
      subject: { client: client.name, user: input.email },
    });
    return invite;
  });
}

/** Mails an open, unexpired invite's link to the invitee again (the same link: the token stays). */
export async function resendInvite(ctx: ServiceContext<{ publicUrl: string } & MailPolicy>, id: number): Promise<RegistrationToken> {
  if (!ctx.policy.mail) throw invalidInput('send', 'mail is not configured on this server (SMTP_URL)');
  return await ctx.db.transaction(async (trx) => {
    const row: InviteRow | undefined = await invitesQuery(trx).where('invites.id', id).whereNull('invites.used_at').first();
    if (!row) throw notFound('registration token', id);
    if (Number(row.expires_at) <= ctx.now()) throw conflict(`the invite for ${row.email} has expired: delete it and invite again`);
    const apps = await appIdsOfInvites(trx, [row.id]);
    const invite = toRegistrationToken(row, apps.get(row.id) ?? [], ctx.policy.publicUrl);
    const mail = invitation(wordsIn(ctx.policy, row.language), {
      email: invite.email,
      client: row.client_name,
      link: invite.link,
      expiresAt: Number(row.expires_at),
    });
    await enqueueMail(withDb(ctx, trx), { kind: 'invite', to: invite.email, ...mail });
    await trx('invites').where({ id }).update({ mailed: true });
    await logEvent(trx, ctx, {
      type: 'invite.resend',
      event: `sent the invitation to ${row.email} again`,
      subject: { client: row.client_name, user: row.email },
    });
    return invite;
  });
}

export async function deleteInvite(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const row: InviteRow | undefined = await invitesQuery(trx).where('invites.id', id).whereNull('invites.used_at').first();
    if (!row) throw notFound('registration token', id);
    await trx('invites').where({ id }).delete();
    await logEvent(trx, ctx, { type: 'invite.delete', event: `deleted invite for ${row.email}`, subject: { client: row.client_name, user: row.email } });
  });
}

const TOKEN_CHECK_WINDOW_MS = 10 * 60 * 1000;

/**
 * Whether an invitation's token can still be used (the registration screen asks before it asks for
 * a password): open, used, expired or unknown, and nothing else about it. Anyone may ask, so an
 * address gets TOKEN_CHECKS_PER_ADDRESS answers per 10 minutes, then 429 until the window ends.
 */
export async function invitationStatus(ctx: ServiceContext<{ tokenChecksPerAddress: number }>, token: string): Promise<RegistrationTokenStatus> {
  const now = ctx.now();
  const rate: RateLimit = { kind: 'token-check', limit: ctx.policy.tokenChecksPerAddress, windowMs: TOKEN_CHECK_WINDOW_MS };
  const hit = await hitRateLimit(ctx.db, rate, { subject: ctx.ip, now });
  if (!hit.allowed) {
    const retryAfter = Math.max(1, Math.ceil((hit.windowStart + TOKEN_CHECK_WINDOW_MS - now) / 1000));
    throw new ApiError('too_many_requests', `too many invitation checks from this address; try again in ${Math.ceil(retryAfter / 60)} minutes`, { retryAfter });
  }
  const row: Pick<InviteRow, 'used_at' | 'expires_at'> | undefined = await ctx.db('invites').where({ token }).first('used_at', 'expires_at');
  if (!row) return 'unknown';
  if (row.used_at !== null) return 'used';
  return Number(row.expires_at) <= now ? 'expired' : 'open';
}

export async function findInviteByToken(db: Knex, token: string): Promise<InviteRow | undefined> {
  return invitesQuery(db).where('invites.token', token).first();
}

export async function appIdsOfInvite(db: Knex, inviteId: number): Promise<number[]> {
  return (await appIdsOfInvites(db, [inviteId])).get(inviteId) ?? [];
}

/**
 * Where an invitation link `/{app}/register?token=…` leads after the password is set: the app's
 * URL when the token is an open invite that grants that app, else nothing (the portal). Without
 * such an invite the answer never depends on whether the app exists (docs/product.md, Security rules).
 */
export async function registrationTarget(db: Knex, token: string, appName: string): Promise<string | undefined> {
  if (!token) return undefined;
  const invite = await findInviteByToken(db, token);
  if (!invite || invite.used_at !== null || Number(invite.expires_at) <= Date.now()) return undefined;
  const app: { url: string } | undefined = await db('invite_apps')
    .join('apps', 'apps.id', 'invite_apps.app_id')
    .where({ 'invite_apps.invite_id': invite.id, 'apps.name': appName })
    .first('apps.url');
  return app?.url;
}
