/**
 * Every event-log entry whose type a hook takes becomes a delivery to that hook, written in the
 * transaction of the entry (services/log/audit.ts calls this), so it exists exactly when the
 * entry does and survives a crash like a queued mail.
 */
import { EventEmitter } from 'node:events';
import { randomToken, WEBHOOK_TEST_EVENT } from '@tools-portal/core';
import type { Knex } from 'knex';

/** Tells the webhook senders of this process that deliveries were committed. */
export const deliveryEvents = new EventEmitter();
deliveryEvents.setMaxListeners(0);

/** The patterns that take `type`: itself and each of its prefixes ending in `.` (`login.` of `login.failure`). */
function patternsOf(type: string): string[] {
  const patterns = [type];
  for (let dot = type.indexOf('.'); dot >= 0; dot = type.indexOf('.', dot + 1)) patterns.push(type.slice(0, dot + 1));
  return patterns;
}

/** `webhook-id` of a delivery: the same on each of its attempts, so a receiver can drop a repeat. */
export const newMessageId = () => `msg_${randomToken(18)}`;

/** Wakes this process's senders once `db`'s transaction (if it is one) has committed. */
function wakeSendersAfterCommit(db: Knex): void {
  const committed = db.isTransaction ? (db as Knex.Transaction).executionPromise : Promise.resolve();
  committed.then(
    () => deliveryEvents.emit('queued'),
    () => {},
  );
}

/**
 * Queues a delivery of entry `logId` to every enabled hook that takes `type`, due at `dueAt` (a
 * counted entry's when its count is final). Nothing is written when no hook takes it.
 */
export async function queueDeliveries(db: Knex, { logId, type, now, dueAt }: { logId: number; type: string; now: number; dueAt: number }): Promise<void> {
  if (type === WEBHOOK_TEST_EVENT) return;
  const hooks: { id: number }[] = await db('webhook_events')
    .join('webhooks', 'webhooks.id', 'webhook_events.webhook_id')
    .where('webhooks.enabled', true)
    .whereIn('webhook_events.pattern', patternsOf(type))
    .distinct('webhooks.id as id');
  if (hooks.length === 0) return;
  await db('webhook_deliveries').insert(
    hooks.map((hook) => ({
      webhook_id: hook.id,
      log_id: logId,
      event_type: type,
      message_id: newMessageId(),
      status: 'queued',
      attempts: 0,
      created_at: now,
      next_attempt_at: dueAt,
    })),
  );
  wakeSendersAfterCommit(db);
}
