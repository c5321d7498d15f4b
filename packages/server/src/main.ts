#!/usr/bin/env node
/**
 * `npm start`: configuration from the environment (and `.env`), then the portal until SIGINT or
 * SIGTERM; with WORKERS above 1, a primary that prepares the database once and runs that many
 * worker processes on the one port (node:cluster, docs/operations.md).
 */
import cluster from 'node:cluster';
import { relayForgets, relayMetrics } from './cluster-peers.js';
import { loadConfigOrExit, type Config, ConfigError } from './config.js';
import { isUnreachable } from './db/errors.js';
import { createLogger, type Logger } from './logger.js';
import { preparePortal, startPortal } from './server.js';

const printInviteLink = (link: string, email: string) =>
  process.stdout.write(`\nFirst start: open this link to set the password of the first admin (${email}):\n\n  ${link}\n\n`);

/** A worker that dies is replaced, but not more often than this, so a crash loop cannot spin. */
const RESTART_DELAY_MS = 1000;

async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const prepared = await preparePortal(config, { logger });
  if (prepared.created && prepared.inviteLink) printInviteLink(prepared.inviteLink, prepared.adminEmail);
  else if (prepared.created) logger.info(`first start: created admin ${prepared.adminEmail}`);
  relayForgets();
  relayMetrics();
  let stopping = false;
  for (let i = 0; i < config.workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) void exitAfterFlush(logger, 0);
      return;
    }
    logger.error(`worker ${worker.process.pid} ended (${signal ?? code}); starting another`);
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, RESTART_DELAY_MS).unref();
  });
  logger.info(`Tools-Portal primary ${process.pid}: ${config.workers} workers`);
  void logger.flush();
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down ${config.workers} workers`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) void exitAfterFlush(logger, 0);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** Every line logged is written before the process ends (the log is buffered: logger.ts). */
async function exitAfterFlush(logger: Logger, code: number): Promise<never> {
  await logger.flush();
  process.exit(code);
}

/**
 * A bug that escapes every handler ends the process, as Node would, but its last lines (this one
 * included) are written first (a write under way finishes before the rest, so nothing is lost or
 * reordered). The supervisor (or the cluster primary) starts another.
 */
function exitOnFatalError(logger: Logger): void {
  let failed = false;
  const fatal = (what: string) => (error: unknown) => {
    logger.error(`fatal: ${what}; exiting`, error instanceof Error ? error : { detail: String(error) });
    if (failed) return;
    failed = true;
    process.exitCode = 1;
    void exitAfterFlush(logger, 1);
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled promise rejection'));
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  exitOnFatalError(logger);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const portal = await startPortal(config, {
    logger,
    onInviteLink: printInviteLink,
  });
  if (portal.bootstrap.created && !portal.bootstrap.inviteLink) {
    logger.info(`first start: created admin ${portal.bootstrap.adminEmail}`);
  }
  logger.info(`Tools-Portal listening on ${portal.url} (public URL ${config.publicUrl})`);
  // Whoever waits for this line (a supervisor, a test) sees it at once, not at the next flush.
  void logger.flush();
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    await portal.close();
    await exitAfterFlush(logger, 0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  if (isUnreachable(error)) {
    const url = (process.env.DATABASE_URL ?? '').replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
    process.stderr.write(`Tools-Portal failed to start: the database ${url} is unreachable (${(error as Error).message})\n`);
    process.exit(1);
  }
  // A configuration problem is the operator's to fix: its message says what, a stack would bury it.
  const text = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`Tools-Portal failed to start: ${text}\n`);
  process.exit(1);
});
