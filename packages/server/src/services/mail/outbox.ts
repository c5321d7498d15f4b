/**
 * The mail outbox (docs/email.md): a mail is a row written in the transaction of the change that
 * causes it, so it exists exactly when the change does. Senders in every instance claim due rows
 * (services/support/outbox-rows.ts), so that of several instances exactly one delivers each mail;
 * a failed delivery is retried with backoff for 24 hours.
 */
import { EventEmitter } from 'node:events';
import { randomToken, type Language, type MailEntry, type MailStatus } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { MailConfig } from '../../config.js';
import { logEvent } from '../log/audit.js';
import type { ServiceContext } from '../support/context.js';
import { claimDue as claimDueRows, HOUR_MS, retryDelayMs, stillClaimed } from '../support/outbox-rows.js';

export { HOUR_MS, retryDelayMs };

/** A mail not delivered within this long of being queued is given up. */
export const GIVE_UP_AFTER_MS = 24 * HOUR_MS;
/**
 * A claimed row is its sender's for this long; past it (the sender crashed) another may claim
 * it. Far longer than one delivery may take (see mail/sender.ts's timeouts).
 */
const LEASE_MS = 5 * 60 * 1000;

/** What the services that send mail need to know: whether mail is on, and where links point. */
export interface MailPolicy {
  publicUrl: string;
  mail: MailConfig | undefined;
  /** The language of mail to recipients who chose none (services/mail/recipients.ts). */
  defaultLanguage: Language;
  /** PORTAL_NAME, in every subject and signature. */
  branding: { portalName: string };
}

/** What queuing a mail reads of a service's context: the database (the caller's transaction), the mail policy and the clock. */
export type MailContext = Pick<ServiceContext<MailPolicy>, 'db' | 'policy' | 'now'>;

export interface OutgoingMail {
  /** What kind of mail, for the queue's listing: `invite`, `password-reset`, `notice.…`. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  message_id: string;
  status: MailStatus;
  attempts: number;
  created_at: number;
  next_attempt_at: number;
  lease_until: number | null;
  sent_at: number | null;
  last_error: string | null;
}

/** Tells the senders of this process that a row was committed, so they need not wait for their next poll. */
export const outboxEvents = new EventEmitter();
outboxEvents.setMaxListeners(0);

const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

/**
 * Queues a mail in the caller's transaction; answers false (and queues nothing) when mail is not
 * configured. The senders are woken once the transaction has committed.
 */
export async function enqueueMail(ctx: MailContext, mail: OutgoingMail): Promise<boolean> {
  const { db, policy } = ctx;
  if (!policy.mail) return false;
  const now = ctx.now();
  const host = new URL(policy.publicUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost';
  await db('mail_outbox').insert({
    kind: clip(mail.kind, 64),
    recipient: clip(mail.to, 254),
    subject: clip(mail.subject, 500),
    text_body: mail.text,
    html_body: mail.html,
    // One Message-ID for every attempt: a receiver can tell a repeated delivery from a new mail.
    message_id: `<${randomToken(18)}@${host}>`,
    status: 'queued',
    attempts: 0,
    created_at: now,
    next_attempt_at: now,
  });
  const committed = db.isTransaction ? (db as Knex.Transaction).executionPromise : Promise.resolve();
  committed.then(
    () => outboxEvents.emit('queued'),
    () => {},
  );
  return true;
}

/**
 * Claims up to `limit` due rows for one delivery attempt each: queued rows whose time has come,
 * and rows whose sender's lease ran out. Answers the rows this caller won.
 */
export const claimDue = (db: Knex, limit: number, now = Date.now()) => claimDueRows<OutboxRow>(db, { table: 'mail_outbox', limit, leaseMs: LEASE_MS, now });

/** A claimed row was delivered: it keeps who, what and when, but not its body (links with tokens). */
export async function markSent(db: Knex, row: OutboxRow, now = Date.now()): Promise<void> {
  await db('mail_outbox')
    .where(stillClaimed(row))
    .update({ status: 'sent', sent_at: now, text_body: null, html_body: null, lease_until: null, last_error: null });
}

/**
 * A claimed row's delivery failed: it is due again after the backoff, or, 24 hours after it was
 * queued, given up (bodies removed, an event in the log). Answers whether it was given up.
 */
export async function markFailed(
  db: Knex,
  { row, error, retrySeconds, now = Date.now() }: { row: OutboxRow; error: string; retrySeconds: number; now?: number },
): Promise<boolean> {
  const lastError = clip(error.replace(/[\r\n]+/g, ' '), 1000);
  const deadline = Number(row.created_at) + GIVE_UP_AFTER_MS;
  const mine = stillClaimed(row);
  if (now >= deadline) {
    return db.transaction(async (trx) => {
      const changed = await trx('mail_outbox')
        .where(mine)
        .update({ status: 'failed', last_error: lastError, text_body: null, html_body: null, lease_until: null });
      if (changed === 1) {
        await logEvent(
          trx,
          { actor: null, ip: '', userAgent: '' },
          {
            type: 'mail.failed',
            event: `mail failed: ${row.subject} to ${row.recipient} after ${row.attempts} attempts (${lastError})`,
            subject: { user: row.recipient },
          },
        );
      }
      return changed === 1;
    });
  }
  const next = Math.min(now + retryDelayMs(retrySeconds, row.attempts), deadline);
  await db('mail_outbox').where(mine).update({ status: 'queued', next_attempt_at: next, lease_until: null, last_error: lastError });
  return false;
}

/** Delivered and given-up mail stays listed this long, then goes. */
export const KEEP_DONE_MS = 30 * 24 * HOUR_MS;

/** Forgets delivered and given-up mail older than 30 days; queued mail is never removed. */
export async function pruneOutbox(db: Knex, now = Date.now()): Promise<number> {
  return db('mail_outbox')
    .whereIn('status', ['sent', 'failed'])
    .andWhere('created_at', '<', now - KEEP_DONE_MS)
    .delete();
}

/** The queue as admins see it (GET /mail, `toolsctl mail list`): newest first, no bodies. */
export async function listOutbox(db: Knex, limit = 500): Promise<MailEntry[]> {
  const rows: OutboxRow[] = await db('mail_outbox')
    .select('id', 'kind', 'recipient', 'subject', 'status', 'attempts', 'created_at', 'next_attempt_at', 'sent_at', 'last_error')
    .orderBy('id', 'desc')
    .limit(limit);
  const iso = (value: number | null) => (value === null ? null : new Date(Number(value)).toISOString());
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    status: row.status,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdTimestamp: iso(row.created_at)!,
    nextAttemptTimestamp: row.status === 'queued' ? iso(row.next_attempt_at) : null,
    sentTimestamp: iso(row.sent_at),
  }));
}

/** Mails waiting to be delivered or being delivered now, for the metrics (docs/operations.md). */
export async function outboxQueueLength(db: Knex): Promise<number> {
  const [row] = await db('mail_outbox').whereIn('status', ['queued', 'sending']).count({ count: '*' });
  return Number(row?.count ?? 0);
}
