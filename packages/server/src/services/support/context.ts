/**
 * What every service function gets first (docs/architecture.md, "Services"): the database handle
 * (a transaction works too, see `withDb`), the policy it reads (the parts of the Config it needs),
 * the clock, who acts and from where. Routes make one per request (routes/route.ts,
 * `serviceContext`). A service function takes `(ctx, input)`, `(ctx, id)` or `(ctx)`: never more than three parameters
 * (eslint.config.js, `max-params`).
 *
 * The context is an `Audit` (services/log/audit.ts) as it is, so a service writes its event with
 * `logEvent(ctx.db, ctx, ...)`.
 */
import type { CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';

/** Where a request came from: its address and user agent (the one type for both). */
export interface Origin {
  ip: string;
  userAgent: string;
}

export interface ServiceContext<Policy = unknown> extends Origin {
  db: Knex;
  /** The part of the configuration the service reads. */
  policy: Policy;
  /** The clock, in ms since the epoch. */
  now: () => number;
  /** Who acts; null when anonymous (a sign-in, a denied request). */
  actor: CurrentUser | null;
  /** The API key the actor called with, if one (services/log/audit.ts, `logRepeated`). */
  apiKeyId?: number;
}

/** A context whose actor is known: a signed-in caller. */
export type ActorContext = ServiceContext & { actor: CurrentUser };

/** Just the address and user agent of a context (spreading a whole context would carry its actor too). */
export const originOf = ({ ip, userAgent }: Origin): Origin => ({ ip, userAgent });

/**
 * The same context on another database handle: several services in one transaction.
 * `await db.transaction((trx) => Promise.all([a(withDb(ctx, trx), x), b(withDb(ctx, trx), y)]))`.
 */
export const withDb = <C extends ServiceContext<unknown>>(ctx: C, db: Knex): C => ({ ...ctx, db });
