/**
 * LOG_RETENTION_DAYS (docs/event-log.md): entries older than that are deleted in small batches,
 * yielding to requests between them, by one instance at a time (a job lease), at most once a day.
 * A run that deleted entries logs one entry saying how many.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { Logger } from '../../logger.js';
import { logEvent, type Audit } from './audit.js';
import { takeJobLease } from '../support/background-job.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_JOB = 'log-prune';
const SYSTEM: Audit = { actor: null, ip: '', userAgent: 'log retention' };

export interface PruneOptions {
  /** Rows deleted by one statement: small, so that no write holds the database for long. */
  batchSize?: number;
  /** Pause between batches, in milliseconds (0: just yield to pending I/O). */
  pauseMs?: number;
  /** Stops between batches when it answers true (the server is closing). */
  stopped?: () => boolean;
  holder?: string;
}

/**
 * One pruning run at `now`: answers how many entries it deleted, or null when retention is off,
 * another instance holds the job, or the last run was less than a day ago.
 */
export async function pruneLog(db: Knex, { retentionDays, now }: { retentionDays: number; now: number }, options: PruneOptions = {}): Promise<number | null> {
  if (retentionDays <= 0) return null;
  const { batchSize = 500, pauseMs = 10, stopped = () => false } = options;
  const lease = await takeJobLease(db, PRUNE_JOB, { now, intervalMs: DAY_MS, leaseMs: 10 * 60 * 1000, holder: options.holder });
  if (!lease) return null;
  const cutoff = now - retentionDays * DAY_MS;
  let removed = 0;
  // Bounded: 20,000 batches of 500 is 10 million rows a run; the rest waits for the next run.
  for (let batch = 1; batch <= 20_000 && !stopped(); batch++) {
    const oldest = db('auth_log').select('id').where('at', '<', cutoff).orderBy('at').limit(batchSize);
    const deleted = await db('auth_log').whereIn('id', oldest).delete();
    removed += deleted;
    if (deleted < batchSize) break;
    if (batch % 100 === 0) await lease.extend(Date.now());
    await sleep(pauseMs);
  }
  // The deletions are many small transactions by design; the entry sums them up.
  if (removed > 0)
    await logEvent(db, SYSTEM, {
      type: 'log.prune',
      event: `deleted ${removed} log entries older than ${retentionDays} days`,
      subject: { client: '', user: '' },
    });
  await lease.finish(now);
  return removed;
}

/** Runs pruneLog now and then (first after `firstDelayMs`), until stopped; failures are logged, never thrown. */
export function startLogPruner(
  db: Knex,
  { retentionDays, logger }: { retentionDays: number; logger: Logger },
  { firstDelayMs = 30_000, everyMs = 15 * 60 * 1000, clock = Date.now } = {},
) {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = pruneLog(db, { retentionDays, now: clock() }, { stopped: () => stopped })
      .then((removed) => {
        if (removed) logger.info(`event log: deleted ${removed} entries older than ${retentionDays} days`);
      })
      .catch((error: unknown) => logger.warn('event log retention failed; trying again later', error))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, everyMs).unref();
      });
  };
  if (retentionDays > 0) timer = setTimeout(tick, firstDelayMs).unref();
  return {
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
