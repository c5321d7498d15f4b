/**
 * A lease on a named background job, so that of several instances sharing a database one at a
 * time runs it, at most once an interval. Taking it is one conditional update: the row's lease
 * has run out (or is ours) and the job is due. A crashed holder's lease runs out by itself.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

const INSTANCE_ID: string = randomUUID();

export interface JobLease {
  /** Marks the job done at `now` and gives up the lease. */
  finish(now: number): Promise<void>;
  /** Keeps the lease `leaseMs` longer (for long runs). */
  extend(now: number): Promise<void>;
}

/** Takes the lease of `name` when the job is due (last run `intervalMs` ago or more); else null. */
export async function takeJobLease(
  db: Knex,
  name: string,
  { now, intervalMs, leaseMs, holder = INSTANCE_ID }: { now: number; intervalMs: number; leaseMs: number; holder?: string },
): Promise<JobLease | null> {
  await db('background_jobs').insert({ name, holder: '', lease_until: 0, last_run_at: 0 }).onConflict('name').ignore();
  const taken = await db('background_jobs')
    .where({ name })
    .andWhere((query) => query.where('lease_until', '<', now).orWhere({ holder }))
    .andWhere('last_run_at', '<=', now - intervalMs)
    .update({ holder, lease_until: now + leaseMs });
  if (taken === 0) return null;
  const ours = () => db('background_jobs').where({ name, holder });
  return {
    finish: async (at) => void (await ours().update({ holder: '', lease_until: 0, last_run_at: at })),
    extend: async (at) => void (await ours().update({ lease_until: at + leaseMs })),
  };
}
