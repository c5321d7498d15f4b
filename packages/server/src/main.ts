#!/usr/bin/env node
/** `npm start`: configuration from the environment, then the portal until SIGINT or SIGTERM. */
import { loadConfigOrExit } from './config.js';
import { isUnreachable } from './db/errors.js';
import { createLogger } from './logger.js';
import { startPortal } from './server.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, { format: config.logFormat });
  const portal = await startPortal(config, {
    logger,
    onInviteLink(link, email) {
      process.stdout.write(`\nFirst start: open this link to set the password of the first admin (${email}):\n\n  ${link}\n\n`);
    },
  });
  if (portal.bootstrap.created && !portal.bootstrap.inviteLink) {
    logger.info(`first start: created admin ${portal.bootstrap.adminEmail}`);
  }
  logger.info(`Tools-Portal listening on ${portal.url} (public URL ${config.publicUrl})`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    await portal.close();
    process.exit(0);
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
  process.stderr.write(`Tools-Portal failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
