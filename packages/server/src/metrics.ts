/**
 * Prometheus metrics through prom-client, one registry per portal (several portals may share a
 * process in tests): process metrics, request durations by route template and status, login
 * outcomes, forward-auth decisions, database pool use and the outboxes' lengths (docs/operations.md).
 */
import { API_PREFIX } from '@tools-portal/core';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface PoolUse {
  used: number;
  free: number;
  pendingAcquires: number;
  max: number;
}

// Login outcomes and forward-auth decisions are read off the answers of their routes, so that the
// services stay free of metrics (the routes' contracts fix what each status means, docs/api.md).
const LOGIN_ROUTE = `${API_PREFIX}/validatepassword`;
const VERIFY_ROUTE = `${API_PREFIX}/verify`;

function loginOutcome(status: number): string {
  if (status === 200) return 'success';
  if (status === 429) return 'refused';
  if (status >= 500) return 'unavailable';
  return 'failure';
}

function verifyDecision(status: number): string {
  if (status === 200) return 'allow';
  if (status === 401 || status === 302) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status >= 500) return 'error';
  return 'invalid';
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly logins: Counter<'outcome'>;
  private readonly decisions: Counter<'decision'>;

  constructor(poolUse: () => PoolUse | undefined, queues: { mail?: () => Promise<number>; webhooks?: () => Promise<number> } = {}) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: "Time from a request's arrival to its answer, by route template and status.",
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    this.logins = new Counter({
      name: 'portal_logins_total',
      help: 'Password logins by outcome: success, failure, refused (too many attempts), unavailable.',
      labelNames: ['outcome'],
      registers: [this.registry],
    });
    this.decisions = new Counter({
      name: 'portal_forward_auth_decisions_total',
      help: 'Forward-auth answers by decision: allow, unauthenticated, forbidden, invalid, error.',
      labelNames: ['decision'],
      registers: [this.registry],
    });
    const pool = (name: string, help: string, pick: (use: PoolUse) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const use = poolUse();
          if (use) this.set(pick(use));
        },
      });
    pool('portal_db_pool_connections_used', 'Database connections in use.', (use) => use.used);
    pool('portal_db_pool_connections_free', 'Open database connections waiting for work.', (use) => use.free);
    pool('portal_db_pool_pending_acquires', 'Queries waiting for a database connection.', (use) => use.pendingAcquires);
    pool('portal_db_pool_connections_max', 'Most database connections this process opens.', (use) => use.max);
    const queue = (name: string, help: string, length: () => Promise<number>) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        // One figure of the shared database: the workers' answers are not to be added up.
        aggregator: 'max',
        async collect() {
          try {
            this.set(await length());
          } catch {
            // The database is away: leave the last figure; /healthz tells the rest.
          }
        },
      });
    if (queues.mail) {
      queue('portal_mail_queue_length', "Mails in the outbox waiting for delivery or being delivered (the database's, shared by every instance).", queues.mail);
    }
    if (queues.webhooks) {
      queue('portal_webhook_queue_length', "Webhook deliveries waiting or under way (the database's, shared by every instance).", queues.webhooks);
    }
  }

  /** The text a scrape answers; under WORKERS, the whole instance's (cluster-peers.ts). */
  text: () => Promise<string> = () => this.registry.metrics();

  observeRequest({ method, route, status, durationMs }: { method: string; route: string; status: number; durationMs: number }): void {
    this.requests.observe({ method, route, status: String(status) }, durationMs / 1000);
    if (route === VERIFY_ROUTE) this.decisions.inc({ decision: verifyDecision(status) });
    else if (route === LOGIN_ROUTE && method === 'POST') this.logins.inc({ outcome: loginOutcome(status) });
  }
}
