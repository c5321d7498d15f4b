/**
 * Webhook deliveries (docs/webhooks.md): an outbox like mail's (services/support/outbox-rows.ts),
 * one row per entry and hook, written with the entry (fan-out.ts). The senders of every instance
 * claim due rows for 60 seconds, far longer than an attempt's 5, so a crash delays a delivery by
 * about a minute and never sends it twice at once. 2xx is done; 410 turns the hook off; other
 * failures are retried with backoff for 24 hours, and a hook whose deliveries have all failed for
 * 3 days is turned off and the admins get a mail.
 */
import { notFound, WEBHOOK_DELIVERY_LIST_SIZE, WEBHOOK_TEST_EVENT, type Language, type WebhookDelivery, type WebhookDeliveryStatus } from '@tools-portal/core';
import type { Knex } from 'knex';
import { webhookDisabled } from '../../mail/templates.js';
import { postWebhook, type PostOutcome } from '../../webhooks/post.js';
import { signedHeaders } from '../../webhooks/signing.js';
import { adminsQuery } from '../access/access-requests.js';
import { LOG_COLUMNS, logEvent, toLogEntry, type Audit, type LogRow } from '../log/audit.js';
import { exportedEntry } from '../log/log-export.js';
import { enqueueMail } from '../mail/outbox.js';
import { wordsIn } from '../mail/recipients.js';
import { claimDue, HOUR_MS, retryDelayMs, stillClaimed } from '../support/outbox-rows.js';
import { newMessageId } from './fan-out.js';
import { failQueuedDeliveries, signingSecrets, type WebhookContext, type WebhookRow } from './webhooks.js';

/** A claimed delivery is its sender's for this long (an attempt takes 5 s at most). */
const LEASE_MS = 60_000;
/** A delivery not done within this long of its entry is given up. */
export const GIVE_UP_AFTER_MS = 24 * HOUR_MS;
/** A hook whose deliveries have all failed for this long is turned off. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * HOUR_MS;
/** A failed delivery's body is kept this long, then removed. */
const FAILED_BODY_KEPT_MS = 7 * 24 * HOUR_MS;
/** Finished deliveries stay listed this long. */
const KEEP_DONE_MS = 30 * 24 * HOUR_MS;

export interface DeliveryRow {
  id: number;
  webhook_id: number;
  log_id: number | null;
  event_type: string;
  message_id: string;
  body: string | null;
  status: 'queued' | 'sending' | 'delivered' | 'failed';
  attempts: number;
  created_at: number | string;
  next_attempt_at: number | string;
  lease_until: number | string | null;
  delivered_at: number | string | null;
  last_code: number | null;
  duration_ms: number | null;
  last_error: string | null;
}

/** What delivering reads: the database, the box of secrets, the policy and the clock. */
export type DeliveryContext = Pick<WebhookContext, 'db' | 'secrets' | 'policy' | 'now'>;

const iso = (value: number | string | null) => (value === null ? null : new Date(Number(value)).toISOString());
const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);
// The portal itself turns a hook off: no actor, no address.
const PORTAL: Audit = { actor: null, ip: '', userAgent: '' };

const STATUS: Record<DeliveryRow['status'], WebhookDeliveryStatus> = { queued: 'pending', sending: 'pending', delivered: 'delivered', failed: 'failed' };

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: Number(row.id),
    eventType: row.event_type,
    status: STATUS[row.status],
    attempts: Number(row.attempts),
    lastCode: row.last_code === null ? null : Number(row.last_code),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    error: row.last_error,
    createdAt: iso(row.created_at)!,
    deliveredAt: iso(row.delivered_at),
  };
}

/** The last 100 deliveries of a hook, newest first. */
export async function listDeliveries(db: Knex, webhookId: number): Promise<WebhookDelivery[]> {
  if (!(await db('webhooks').where({ id: webhookId }).first('id'))) throw notFound('webhook', webhookId);
  const rows: DeliveryRow[] = await db('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('id', 'desc').limit(WEBHOOK_DELIVERY_LIST_SIZE);
  return rows.map(toDelivery);
}

/** Claims due deliveries of enabled hooks (services/support/outbox-rows.ts). */
export const claimDueDeliveries = (db: Knex, limit: number, now: number) =>
  claimDue<DeliveryRow>(db, {
    table: 'webhook_deliveries',
    limit,
    leaseMs: LEASE_MS,
    now,
    scope: (query) => query.whereIn('webhook_id', db('webhooks').where('enabled', true).select('id')),
  });

/**
 * The body: the Standard Webhooks payload `{type, timestamp, data}`, `data` the entry as the JSON
 * Lines export writes it. Made at the first attempt and kept, so every attempt signs the same bytes.
 */
async function bodyOf(db: Knex, row: DeliveryRow): Promise<string | null> {
  if (row.body !== null) return row.body;
  const entry: LogRow | undefined = row.log_id === null ? undefined : await db('auth_log').where({ id: row.log_id }).first(LOG_COLUMNS);
  if (!entry) return null;
  const data = exportedEntry(toLogEntry(entry));
  const body = JSON.stringify({ type: data.type, timestamp: data.timestamp, data });
  await db('webhook_deliveries').where(stillClaimed(row)).update({ body });
  return body;
}

/** Turns a hook off once (the first caller), fails its queued deliveries, logs it and mails the admins. */
async function disableHook(ctx: DeliveryContext, { hook, reason }: { hook: WebhookRow; reason: string }): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const changed = await trx('webhooks').where({ id: hook.id, enabled: true }).update({ enabled: false });
    if (changed !== 1) return;
    await failQueuedDeliveries(trx, Number(hook.id), `the webhook was turned off: ${reason}`);
    await logEvent(trx, PORTAL, { type: 'webhook.disable', event: `turned off webhook ${hook.id} to ${hook.url}: ${reason}` });
    if (!ctx.policy.mail) return;
    const what = { id: Number(hook.id), url: hook.url, reason, link: `${ctx.policy.publicUrl}/auth/#/webhooks` };
    for (const admin of (await adminsQuery(trx)) as { email: string; language: Language | null }[]) {
      const mail = webhookDisabled(wordsIn(ctx.policy, admin.language), what);
      await enqueueMail({ db: trx, policy: ctx.policy, now: ctx.now }, { kind: 'webhook-disabled', to: admin.email, ...mail });
    }
  });
}

/** Records an attempt's outcome on the row it claimed (nothing if its lease was lost meanwhile). */
async function record(ctx: DeliveryContext, { row, hook, outcome }: { row: DeliveryRow; hook: WebhookRow; outcome: PostOutcome }): Promise<void> {
  const { db } = ctx;
  const now = ctx.now();
  const attempt = {
    last_code: outcome.code,
    duration_ms: Math.round(outcome.durationMs),
    last_error: outcome.error && clip(outcome.error, 1000),
    lease_until: null,
  };
  if (outcome.error === null) {
    await db('webhook_deliveries')
      .where(stillClaimed(row))
      .update({ ...attempt, status: 'delivered', delivered_at: now, body: null });
    await db('webhooks').where({ id: hook.id }).whereNotNull('failing_since').update({ failing_since: null });
    return;
  }
  if (outcome.code === 410) {
    await db('webhook_deliveries')
      .where(stillClaimed(row))
      .update({ ...attempt, status: 'failed' });
    await disableHook(ctx, { hook, reason: 'its receiver answered 410 Gone' });
    return;
  }
  const deadline = Number(row.created_at) + GIVE_UP_AFTER_MS;
  if (now >= deadline || row.event_type === WEBHOOK_TEST_EVENT) {
    await db('webhook_deliveries')
      .where(stillClaimed(row))
      .update({ ...attempt, status: 'failed' });
  } else {
    const next = Math.min(now + retryDelayMs(ctx.policy.webhooks.retrySeconds, Number(row.attempts)), deadline);
    await db('webhook_deliveries')
      .where(stillClaimed(row))
      .update({ ...attempt, status: 'queued', next_attempt_at: next });
  }
  await db('webhooks').where({ id: hook.id }).whereNull('failing_since').update({ failing_since: now });
  const failing = await db('webhooks').where({ id: hook.id }).first('failing_since');
  if (failing?.failing_since !== null && failing?.failing_since !== undefined && now - Number(failing.failing_since) >= DISABLE_AFTER_FAILING_MS) {
    await disableHook(ctx, { hook, reason: 'every delivery failed for 3 days' });
  }
}

/**
 * One attempt of a delivery this caller claimed: the body signed with the hook's secrets, posted
 * to its URL (checked again now), the outcome recorded. Answers the outcome.
 */
export async function deliverClaimed(ctx: DeliveryContext, row: DeliveryRow): Promise<PostOutcome> {
  const { db } = ctx;
  const hook: WebhookRow | undefined = await db('webhooks').where({ id: row.webhook_id }).first();
  if (!hook) return { code: null, durationMs: 0, error: 'the webhook was deleted' };
  let outcome: PostOutcome;
  const body = await bodyOf(db, row);
  if (body === null) outcome = { code: null, durationMs: 0, error: 'the event-log entry no longer exists' };
  else {
    try {
      const at = new Date(ctx.now());
      const headers = signedHeaders({ secrets: signingSecrets(ctx.secrets, hook, at.getTime()), messageId: row.message_id, at, body });
      outcome = await postWebhook(
        {
          url: hook.url,
          body,
          headers: { 'content-type': 'application/json', 'user-agent': 'Tools-Portal-Webhooks', ...headers },
          allowLoopback: ctx.policy.webhooks.allowLoopback,
        },
        ctx.now,
      );
    } catch (error) {
      outcome = { code: null, durationMs: 0, error: `cannot sign: ${(error as Error).message}` };
    }
  }
  await record(ctx, { row, hook, outcome });
  return outcome;
}

/**
 * `POST /webhook/{id}/test`: a `webhook.test` entry in the log and its delivery to this hook only
 * (whatever its events), attempted at once, once; answers the delivery after the attempt.
 */
export async function sendTestDelivery(ctx: WebhookContext, id: number): Promise<WebhookDelivery> {
  ctx.secrets.requireKey();
  const row = await ctx.db.transaction(async (trx) => {
    const hook: WebhookRow | undefined = await trx('webhooks').where({ id }).first();
    if (!hook) throw notFound('webhook', id);
    const logId = await logEvent(trx, ctx, { type: WEBHOOK_TEST_EVENT, event: `sent a test delivery to webhook ${id} (${hook.url})` });
    const now = ctx.now();
    // Claimed by this call from the start: no sender takes it meanwhile.
    const [inserted] = await trx('webhook_deliveries')
      .insert({
        webhook_id: id,
        log_id: logId,
        event_type: WEBHOOK_TEST_EVENT,
        message_id: newMessageId(),
        status: 'sending',
        attempts: 1,
        created_at: now,
        next_attempt_at: now,
        lease_until: now + LEASE_MS,
      })
      .returning('id');
    const deliveryId = Number(typeof inserted === 'object' ? inserted.id : inserted);
    return (await trx('webhook_deliveries').where({ id: deliveryId }).first()) as DeliveryRow;
  });
  await deliverClaimed(ctx, row);
  return toDelivery(await ctx.db('webhook_deliveries').where({ id: row.id }).first());
}

/** Removes the bodies of failed deliveries after 7 days, and finished deliveries after 30. */
export async function pruneDeliveries(db: Knex, now: number): Promise<void> {
  await db('webhook_deliveries')
    .where('status', 'failed')
    .andWhere('created_at', '<', now - FAILED_BODY_KEPT_MS)
    .whereNotNull('body')
    .update({ body: null });
  await db('webhook_deliveries')
    .whereIn('status', ['delivered', 'failed'])
    .andWhere('created_at', '<', now - KEEP_DONE_MS)
    .delete();
}

/** Deliveries waiting or under way, for the metrics (docs/operations.md). */
export async function webhookQueueLength(db: Knex): Promise<number> {
  const [row] = await db('webhook_deliveries').whereIn('status', ['queued', 'sending']).count({ count: '*' });
  return Number(row?.count ?? 0);
}
