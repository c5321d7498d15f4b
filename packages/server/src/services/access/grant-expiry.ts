/**
 * Expired grants, team memberships and team grants are removed and each removal logged
 * (docs/api.md, Users; Teams, roles and owners). Every query already
 * ignores a grant past its expiry, so the sweep only tidies up and records; several instances
 * may sweep at once, and a grant's removal is logged by whichever deleted it.
 */
import type { Knex } from 'knex';
import type { Logger } from '../../logger.js';
import { logEvent } from '../log/audit.js';
import { repeatEvery } from '../support/repeat.js';

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
  return removed + (await removeExpiredMemberships(db, now, limit)) + (await removeExpiredTeamGrants(db, now, limit));
}

async function removeExpiredMemberships(db: Knex, now: number, limit: number): Promise<number> {
  const due: { team_id: number; user_id: number; expires_at: number | string; email: string; client: string; team: string }[] = await db('team_members')
    .join('users', 'users.id', 'team_members.user_id')
    .join('clients', 'clients.id', 'users.client_id')
    .join('teams', 'teams.id', 'team_members.team_id')
    .where('team_members.expires_at', '<=', now)
    .select('team_members.team_id', 'team_members.user_id', 'team_members.expires_at', 'users.email', 'clients.name as client', 'teams.name as team')
    .orderBy('team_members.expires_at')
    .limit(limit);
  let removed = 0;
  for (const membership of due) {
    await db.transaction(async (trx) => {
      const deleted = await trx('team_members').where({ team_id: membership.team_id, user_id: membership.user_id }).where('expires_at', '<=', now).delete();
      if (deleted === 0) return;
      removed++;
      await logEvent(trx, SYSTEM, {
        type: 'team.member_expire',
        event: `membership of ${membership.email} in team ${membership.team} expired (${new Date(Number(membership.expires_at)).toISOString()}) and was removed`,
        subject: { client: membership.client, user: membership.email },
      });
    });
  }
  return removed;
}

async function removeExpiredTeamGrants(db: Knex, now: number, limit: number): Promise<number> {
  const due: { team_id: number; app_id: number; expires_at: number | string; team: string; app: string }[] = await db('team_apps')
    .join('teams', 'teams.id', 'team_apps.team_id')
    .join('apps', 'apps.id', 'team_apps.app_id')
    .where('team_apps.expires_at', '<=', now)
    .select('team_apps.team_id', 'team_apps.app_id', 'team_apps.expires_at', 'teams.name as team', 'apps.name as app')
    .orderBy('team_apps.expires_at')
    .limit(limit);
  let removed = 0;
  for (const grant of due) {
    await db.transaction(async (trx) => {
      const deleted = await trx('team_apps').where({ team_id: grant.team_id, app_id: grant.app_id }).where('expires_at', '<=', now).delete();
      if (deleted === 0) return;
      removed++;
      await logEvent(trx, SYSTEM, {
        type: 'team.grant_expire',
        event: `grant of app ${grant.app} to team ${grant.team} expired (${new Date(Number(grant.expires_at)).toISOString()}) and was removed`,
        subject: { client: '', user: '' },
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
  return repeatEvery(intervalMs, {
    run: async () => {
      if ((await removeExpiredGrants(db)) > 0) onRemoved();
    },
    onError: (error) => logger.warn('could not remove expired grants', error),
  });
}
