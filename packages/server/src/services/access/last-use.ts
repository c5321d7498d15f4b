/**
 * When each user last used each app (docs/reviews.md, Last use): forward auth and OpenID sign-ins
 * `note` a use in memory, which costs a map lookup on the request path; a background flush writes
 * the pairs noted since, in one statement. A pair is written at its first use (within one flush
 * interval, at most a minute), then at most once an hour: the value is for "not used in 90 days",
 * not for auditing each request. Several instances write the same pair at most once an hour each;
 * the later time wins.
 */
import type { Knex } from 'knex';
import type { Logger } from '../../logger.js';

const LAST_USE_WRITE_EVERY_MS = 60 * 60 * 1000;
const FLUSH_ROWS = 500;

export class LastUse {
  /** Per user, per app: when this process last queued a write of the pair. */
  private readonly written = new Map<number, Map<number, number>>();
  /** Pairs to write at the next flush: user, app, time. */
  private pending: [number, number, number][] = [];

  constructor(
    private readonly now: () => number = Date.now,
    /** RECORD_LAST_USE: false turns the notes off (the benchmark's comparison row). */
    private readonly enabled = true,
  ) {}

  /** Records a use of `appId` by `userId`; nothing to wait for. */
  note(userId: number, appId: number): void {
    if (!this.enabled) return;
    const now = this.now();
    let apps = this.written.get(userId);
    if (apps === undefined) this.written.set(userId, (apps = new Map()));
    const last = apps.get(appId);
    if (last !== undefined && now - last < LAST_USE_WRITE_EVERY_MS) return;
    apps.set(appId, now);
    this.pending.push([userId, appId, now]);
  }

  /** How many pairs await the flush (tests, metrics). */
  get waiting(): number {
    return this.pending.length;
  }

  /** Writes the pairs noted since the last flush; a failed write is given back for the next one. */
  async flush(db: Knex): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    for (let start = 0; start < batch.length; start += FLUSH_ROWS) {
      const rows = batch.slice(start, start + FLUSH_ROWS).map(([user_id, app_id, used_at]) => ({ user_id, app_id, used_at }));
      try {
        // A user or app deleted since does not stop the others: only pairs that still exist.
        const users = new Set(
          (
            await db('users')
              .whereIn('id', [...new Set(rows.map((row) => row.user_id))])
              .pluck('id')
          ).map(Number),
        );
        const apps = new Set(
          (
            await db('apps')
              .whereIn('id', [...new Set(rows.map((row) => row.app_id))])
              .pluck('id')
          ).map(Number),
        );
        const live = rows.filter((row) => users.has(row.user_id) && apps.has(row.app_id));
        if (live.length === 0) continue;
        await db('app_last_use')
          .insert(live)
          .onConflict(['user_id', 'app_id'])
          .merge({ used_at: db.raw('CASE WHEN excluded.used_at > app_last_use.used_at THEN excluded.used_at ELSE app_last_use.used_at END') });
      } catch (error) {
        this.pending.push(...batch.slice(start));
        throw error;
      }
    }
  }

  /** Flushes every `intervalMs` until stopped (and once more then). */
  start(db: Knex, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
    let running: Promise<void> = Promise.resolve();
    const flush = () =>
      (running = running.then(() => this.flush(db).catch((error: unknown) => logger.warn('could not record when apps were last used', error))));
    const timer = setInterval(flush, intervalMs);
    timer.unref();
    return {
      stop: async () => {
        clearInterval(timer);
        await flush();
      },
    };
  }
}

/** The last use of each app by one user (ms), for the apps given. */
export async function lastUsesOfUser(db: Knex, userId: number): Promise<Map<number, number>> {
  const rows: { app_id: number; used_at: number | string }[] = await db('app_last_use').where('user_id', userId).select('app_id', 'used_at');
  return new Map(rows.map((row) => [Number(row.app_id), Number(row.used_at)]));
}

/** The last use of one app by each user (ms). */
export async function lastUsesOfApp(db: Knex, appId: number): Promise<Map<number, number>> {
  const rows: { user_id: number; used_at: number | string }[] = await db('app_last_use').where('app_id', appId).select('user_id', 'used_at');
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.used_at)]));
}
