/**
 * Expired grants are removed and each removal logged (docs/api.md, Users). Every query already
 * ignores a grant past its expiry, so the sweep only tidies up and records; several instances
 * may sweep at once, and a grant's removal is logged by whichever deleted it.
 */
import type { Knex } from 'knex';
import type { Logger } from '../../logger.js';
import { logEvent } from '../log/audit.js';

const SYSTEM = { actor: null, ip: '', userAgent: 'tools-portal' };

/** Removes the grants expired at `now` (at most `limit` a run); answers how many this call removed. */
export async function removeExpiredGrants(db: Knex, now = Date.now(), limit = 500): Promise<number> {
  const due: { user_id: number; app_id: number; expires_at: number | string; email: string; client: string; app: string }[] = await db('user_apps')
    .join('users', 'users.id', 'user_apps.user_id')
    .join('clients', 'clients.id', 'users.client_id')
    .join('apps', 'apps.id', 'user_apps.app_id')
    .where('user_apps.expires_at', '<=', now)
    .select('user_apps.user_id', 'user_apps.app_id', 'user_apps.expires_at', 'users.email', 'clients.name as client', 'apps.name as app')
    .orderBy('user_apps.expires_at')
    .limit(limit);
  let removed = 0;
  for (const grant of due) {
    await db.transaction(async (trx) => {
      // Only the instance whose delete took the row logs it; the expiry may also have moved meanwhile.
      const deleted = await trx('user_apps').where({ user_id: grant.user_id, app_id: grant.app_id }).where('expires_at', '<=', now).delete();
      if (deleted === 0) return;
      removed++;
      const at = new Date(Number(grant.expires_at)).toISOString();
      await logEvent(trx, SYSTEM, {
        type: 'grant.expire',
        event: `grant of app ${grant.app} to ${grant.email} expired (${at}) and was removed`,
        subject: { client: grant.client, user: grant.email },
      });
    });
  }
  return removed;
}

/** Sweeps every `intervalMs` until stopped; a failed sweep is logged and tried again next time. */
export function startGrantExpiry(
  db: Knex,
  logger: Logger,
  { intervalMs, onRemoved }: { intervalMs: number; onRemoved: () => void },
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        if ((await removeExpiredGrants(db)) > 0) onRemoved();
      } catch (error) {
        logger.warn('could not remove expired grants', error);
      }
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
