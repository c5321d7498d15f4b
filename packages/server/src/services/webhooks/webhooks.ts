/**
 * Webhooks as admins manage them (docs/webhooks.md): a receiver's URL, the event types or
 * prefixes it takes, and its signing secret, sealed with SECRET_KEY (services/support/secret-box.ts)
 * and shown once, at creation and at each rotation; the previous secret signs too for 24 hours.
 */
import { invalidInput, notFound, type Webhook, type WebhookWithSecret } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import { DELIVERY_TIMEOUT_MS } from '../../webhooks/post.js';
import { DestinationError, resolveDestination } from '../../webhooks/destinations.js';
import { newWebhookSecret } from '../../webhooks/signing.js';
import { logEvent } from '../log/audit.js';
import type { ServiceContext } from '../support/context.js';
import type { SecretBox } from '../support/secret-box.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** After a rotation the previous secret signs too for this long, while receivers change over. */
const PREVIOUS_SECRET_MS = DAY_MS;

const PLAIN_HTTP_WARNING = 'plain http: the events and their signatures travel unencrypted; use https';

/** What the webhook services read: the policy (webhooks, and mail for the notice to admins) and the box of secrets. */
export type WebhookContext = ServiceContext<Pick<Config, 'webhooks' | 'publicUrl' | 'mail' | 'defaultLanguage' | 'branding'>> & { secrets: SecretBox };

export interface WebhookRow {
  id: number;
  url: string;
  description: string;
  enabled: boolean | number;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | string | null;
  created_at: number | string;
  failing_since: number | string | null;
}

/** The purpose a hook's secrets are sealed under: a sealed secret moved to another hook fails to open. */
const secretPurpose = (id: number) => `webhook-secret ${id}`;

function toWebhook(row: WebhookRow, events: string[]): Webhook {
  return {
    id: Number(row.id),
    url: row.url,
    events,
    description: row.description,
    enabled: Boolean(row.enabled),
    ...(new URL(row.url).protocol === 'http:' ? { warning: PLAIN_HTTP_WARNING } : {}),
  };
}

async function eventsOf(db: Knex, ids: number[]): Promise<Map<number, string[]>> {
  const rows: { webhook_id: number; pattern: string }[] = await db('webhook_events')
    .whereIn('webhook_id', ids)
    .orderBy('pattern')
    .select('webhook_id', 'pattern');
  const events = new Map<number, string[]>();
  for (const row of rows) events.set(Number(row.webhook_id), [...(events.get(Number(row.webhook_id)) ?? []), row.pattern]);
  return events;
}

async function hookRow(db: Knex, id: number): Promise<WebhookRow> {
  const row: WebhookRow | undefined = await db('webhooks').where({ id }).first();
  if (!row) throw notFound('webhook', id);
  return row;
}

async function presented(db: Knex, row: WebhookRow): Promise<Webhook> {
  return toWebhook(row, (await eventsOf(db, [Number(row.id)])).get(Number(row.id)) ?? []);
}

/** A 400 naming `url` when its host resolves to an address no hook may reach (the delivery checks again). */
async function checkUrl(ctx: WebhookContext, url: string): Promise<void> {
  try {
    await resolveDestination(new URL(url), { allowLoopback: ctx.policy.webhooks.allowLoopback, timeoutMs: DELIVERY_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof DestinationError) throw invalidInput('url', error.message);
    throw error;
  }
}

const setEvents = async (db: Knex, id: number, events: string[]) => {
  await db('webhook_events').where({ webhook_id: id }).delete();
  await db('webhook_events').insert(events.map((pattern) => ({ webhook_id: id, pattern })));
};

export async function listWebhooks(db: Knex): Promise<Webhook[]> {
  const rows: WebhookRow[] = await db('webhooks').orderBy('id');
  const events = await eventsOf(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => toWebhook(row, events.get(Number(row.id)) ?? []));
}

export async function getWebhook(db: Knex, id: number): Promise<Webhook> {
  return presented(db, await hookRow(db, id));
}

export async function createWebhook(
  ctx: WebhookContext,
  { url, events, description }: { url: string; events: string[]; description: string },
): Promise<WebhookWithSecret> {
  ctx.secrets.requireKey();
  await checkUrl(ctx, url);
  const secret = newWebhookSecret();
  return ctx.db.transaction(async (trx) => {
    // The secret is sealed under the hook's id, known once the row is.
    const [inserted] = await trx('webhooks').insert({ url, description, enabled: true, secret: '', created_at: ctx.now() }).returning('id');
    const id = Number(typeof inserted === 'object' ? inserted.id : inserted);
    await trx('webhooks')
      .where({ id })
      .update({ secret: ctx.secrets.encrypt(secret, secretPurpose(id)) });
    await setEvents(trx, id, events);
    await logEvent(trx, ctx, { type: 'webhook.create', event: `created webhook ${id} to ${url} for ${events.join(', ')}` });
    return { ...(await presented(trx, await hookRow(trx, id))), secret };
  });
}

export async function updateWebhook(
  ctx: WebhookContext,
  { id, url, events, description, enabled }: { id: number; url?: string; events?: string[]; description?: string; enabled?: boolean },
): Promise<Webhook> {
  if (url !== undefined) await checkUrl(ctx, url);
  return ctx.db.transaction(async (trx) => {
    const before = await hookRow(trx, id);
    const changes: Partial<WebhookRow> = {};
    if (url !== undefined) changes.url = url;
    if (description !== undefined) changes.description = description;
    if (enabled !== undefined) changes.enabled = enabled;
    // Turned back on: the failures before do not count towards turning it off again.
    if (enabled === true && !before.enabled) changes.failing_since = null;
    if (Object.keys(changes).length > 0) await trx('webhooks').where({ id }).update(changes);
    if (events !== undefined) await setEvents(trx, id, events);
    if (enabled === false && before.enabled) await failQueuedDeliveries(trx, id, 'the webhook was turned off');
    const what = [
      url !== undefined && `url ${url}`,
      events !== undefined && `events ${events.join(', ')}`,
      description !== undefined && 'description',
      enabled !== undefined && (enabled ? 'turned on' : 'turned off'),
    ].filter(Boolean);
    await logEvent(trx, ctx, { type: 'webhook.update', event: `changed webhook ${id}: ${what.join('; ') || 'nothing'}` });
    return presented(trx, await hookRow(trx, id));
  });
}

export async function deleteWebhook(ctx: WebhookContext, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const before = await hookRow(trx, id);
    // Its deliveries and event types go with it (foreign keys).
    await trx('webhooks').where({ id }).delete();
    await logEvent(trx, ctx, { type: 'webhook.delete', event: `deleted webhook ${id} to ${before.url}` });
  });
}

/** A new secret, shown once; the current one becomes the previous one and signs too for 24 hours. */
export async function rotateWebhookSecret(ctx: WebhookContext, id: number): Promise<WebhookWithSecret> {
  ctx.secrets.requireKey();
  const secret = newWebhookSecret();
  return ctx.db.transaction(async (trx) => {
    const before = await hookRow(trx, id);
    await trx('webhooks')
      .where({ id })
      .update({
        secret: ctx.secrets.encrypt(secret, secretPurpose(id)),
        previous_secret: before.secret,
        previous_secret_until: ctx.now() + PREVIOUS_SECRET_MS,
      });
    await logEvent(trx, ctx, {
      type: 'webhook.secret',
      event: `rotated the signing secret of webhook ${id}; the previous one signs too for 24 hours`,
    });
    return { ...(await presented(trx, await hookRow(trx, id))), secret };
  });
}

/** The secrets that sign now: the current one, and the previous one during its 24 hours. */
export function signingSecrets(secrets: SecretBox, row: WebhookRow, now: number): string[] {
  const current = secrets.decryptText(row.secret, secretPurpose(Number(row.id)));
  const previousValid = row.previous_secret && Number(row.previous_secret_until) > now;
  return previousValid ? [current, secrets.decryptText(row.previous_secret!, secretPurpose(Number(row.id)))] : [current];
}

/** The queued deliveries of a hook turned off are given up (a hook turned back on starts afresh). */
export async function failQueuedDeliveries(db: Knex, webhookId: number, reason: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ webhook_id: webhookId, status: 'queued' })
    .update({ status: 'failed', last_error: reason.slice(0, 1000), body: null });
}
