/** Starting and stopping a whole portal: database, migrations, first-start bootstrap, HTTP. */
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { createApp } from './app.js';
import { joinForgets, joinMetrics } from './cluster-peers.js';
import { startLogPruner } from './services/log/log-retention.js';
import { isVerifyRequest, verifyFastPath } from './verify-fast-path.js';
import type { Config } from './config.js';
import { openDatabase, prepareDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { createLogger, type Logger } from './logger.js';
import { Metrics, type PoolUse } from './metrics.js';
import { outboxQueueLength } from './services/mail/outbox.js';
import type { Deps } from './routes/index.js';
import { AuthCache } from './services/access/auth-cache.js';
import { bootstrap, type BootstrapResult } from './services/users/bootstrap.js';
import { startGrantExpiry } from './services/access/grant-expiry.js';
import { LastUse } from './services/access/last-use.js';
import { startReviewJob } from './services/reviews/review-close.js';
import { HashPool } from './services/sign-in/hash-pool.js';
import { PasswordHasher } from './services/sign-in/passwords.js';
import { MailSender } from './mail/sender.js';
import { WebhookSender } from './webhooks/sender.js';
import { webhookQueueLength } from './services/webhooks/deliveries.js';
import { openSecretBox } from './services/support/secret-box.js';
import { OidcProvider } from './oidc/provider.js';
import { userinfoFromMemory } from './oidc/userinfo-answers.js';

/** How long an idle keep-alive connection stays open: longer than proxies keep theirs (60 s). */
export const KEEP_ALIVE_MS = 65_000;

export interface RunningPortal {
  /** Where the server listens, e.g. `http://127.0.0.1:8080`. */
  url: string;
  server: http.Server;
  deps: Deps;
  bootstrap: BootstrapResult;
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** PostgreSQL schema to use instead of the default one (tests). */
  schema?: string;
  /** Take PUBLIC_URL from the address actually bound (tests listening on port 0). */
  publicUrlFromAddress?: boolean;
  /** Called with the first admin's invite link when bootstrap made one. */
  onInviteLink?: (link: string, email: string) => void;
  /** How often expired grants are removed and logged (default 5 s). */
  grantSweepMs?: number;
  /** How often last uses of apps are written (default 30 s: a first use within a minute). */
  lastUseFlushMs?: number;
  /** How often due access reviews are closed and reminders sent (default 30 s). */
  reviewSweepMs?: number;
  /** The clock of the forward-auth cache (default Date.now): tests move it past AUTH_CACHE_SECONDS instead of waiting. */
  authCacheNow?: () => number;
}

/** The built web portal, if it has been built. */
function defaultWebRoot(): string | undefined {
  const root = fileURLToPath(new URL('../../web/dist/', import.meta.url)).replace(/\/$/, '');
  return fs.existsSync(`${root}/index.html`) ? root : undefined;
}

/** What the database pool (tarn, inside Knex) is doing right now. */
function poolUse(db: Knex): PoolUse | undefined {
  const pool = (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number; max: number } }).pool;
  return pool ? { used: pool.numUsed(), free: pool.numFree(), pendingAcquires: pool.numPendingAcquires(), max: pool.max } : undefined;
}

/**
 * Migrations and the first start's bootstrap, once, before several workers start (WORKERS): the
 * primary runs this, then each worker's startPortal finds the work done.
 */
export async function preparePortal(config: Config, options: Pick<StartOptions, 'logger'> = {}): Promise<BootstrapResult> {
  const logger = options.logger ?? createLogger(config.logLevel, { format: config.logFormat });
  const db: Knex = openDatabase({ url: config.databaseUrl, poolMax: 1, logger });
  try {
    await prepareDatabase(db);
    await migrateToLatest(db);
    return await bootstrap(db, new PasswordHasher(config.scryptLogN), {
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      publicUrl: config.publicUrl,
      inviteTtlDays: config.inviteTtlDays,
      portalName: config.branding.portalName,
    });
  } finally {
    await db.destroy();
  }
}

export async function startPortal(config: Config, options: StartOptions = {}): Promise<RunningPortal> {
  const logger = options.logger ?? createLogger(config.logLevel, { format: config.logFormat });
  const db: Knex = openDatabase({ url: config.databaseUrl, schema: options.schema, poolMax: config.databasePoolMax, logger });
  // Until bootstrap has finished, requests are answered 503 rather than left waiting.
  let handle: http.RequestListener = (_request, response) => {
    response.writeHead(503, { 'retry-after': '1' }).end();
  };
  const server = http.createServer((request, response) => handle(request, response));
  // A proxy keeps idle connections to the portal open and reuses them (nginx's upstream `keepalive`
  // for 60 s, most load balancers as long): the portal must not close one first, or a request the
  // proxy sends just as it closes fails (a 502 for a POST, which the proxy does not retry). Node's
  // default closes them after 5 s.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  try {
    await prepareDatabase(db, options.schema);
    await migrateToLatest(db);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    const origin = new URL(url).origin;
    const final: Config = {
      ...config,
      ...(options.publicUrlFromAddress ? { publicUrl: url, publicOrigin: origin, trustedOrigins: [origin] } : {}),
      webRoot: config.webRoot ?? defaultWebRoot(),
    };
    const hasher = new PasswordHasher(final.scryptLogN, new HashPool(final.passwordHashConcurrency, final.passwordHashQueue));
    const result = await bootstrap(db, hasher, {
      adminEmail: final.adminEmail,
      adminPassword: final.adminPassword,
      publicUrl: final.publicUrl,
      inviteTtlDays: final.inviteTtlDays,
      portalName: final.branding.portalName,
    });
    await hasher.calibrate(db);
    if (result.created && result.inviteLink) options.onInviteLink?.(result.inviteLink, result.adminEmail);
    const authCache = new AuthCache(db, final, { ttlMs: final.authCacheSeconds * 1000, now: options.authCacheNow });
    const metrics = new Metrics(() => poolUse(db), { mail: () => outboxQueueLength(db), webhooks: () => webhookQueueLength(db) });
    if (cluster.isWorker) {
      authCache.shareClears(joinForgets(() => authCache.clearHere()));
      metrics.text = joinMetrics(metrics.registry);
    }
    const secrets = openSecretBox(final, logger);
    const lastUse = new LastUse(Date.now, final.recordLastUse);
    const oidc = new OidcProvider({ db, config: final, logger, secrets, authCache, lastUse });
    await oidc.prepare();
    const deps: Deps = { db, config: final, hasher, logger, authCache, secrets, metrics, oidc, lastUse };
    const koa = createApp(deps).callback();
    const verify = verifyFastPath(deps);
    const userinfo = userinfoFromMemory(deps);
    handle = (request, response) => {
      if (isVerifyRequest(request)) void verify(request, response);
      else if (!userinfo(request, response)) void koa(request, response);
    };
    const pruner = startLogPruner(db, { retentionDays: final.logRetentionDays, logger });
    const sender = final.mail ? new MailSender(db, final.mail, logger) : undefined;
    sender?.start();
    const webhooks = new WebhookSender({ db, config: final, secrets, logger });
    webhooks.start();
    const grantExpiry = startGrantExpiry(db, logger, { intervalMs: options.grantSweepMs ?? 5000, onRemoved: () => authCache.clear() });
    const lastUseFlush = lastUse.start(db, logger, options.lastUseFlushMs ?? 30_000);
    const reviewJob = startReviewJob(db, { policy: final, logger, intervalMs: options.reviewSweepMs ?? 30_000, onClosed: () => authCache.clear() });
    return {
      url,
      server,
      deps,
      bootstrap: result,
      async close() {
        await grantExpiry.stop();
        await reviewJob.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await lastUseFlush.stop();
        await pruner.stop();
        await sender?.stop();
        await webhooks.stop();
        await db.destroy();
      },
    };
  } catch (error) {
    server.close();
    await db.destroy();
    throw error;
  }
}
