/**
 * The sender every instance runs when mail is configured: it claims due rows of the outbox,
 * hands each to the SMTP server, and records the outcome (services/mail/outbox.ts). It runs when a
 * transaction of this process queued mail, and every MAIL_POLL_SECONDS for retries and for mail
 * that another instance queued or left behind when it crashed.
 */
import type { Knex } from 'knex';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { claimDue, HOUR_MS, markFailed, markSent, outboxEvents, pruneOutbox, type OutboxRow } from '../services/mail/outbox.js';
import { drainBatches, WakeablePoller } from '../services/support/wakeable-poller.js';

const BATCH = 20;
// A run ends after this many batches; the next wake or poll goes on.
const MAX_BATCHES_PER_RUN = 50;
// Together far below the outbox's lease, so a slow server cannot make two senders overlap.
const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

export class MailSender {
  private readonly transport: Transporter;
  private readonly poller: WakeablePoller;
  private prunedAt = 0;

  constructor(
    private readonly db: Knex,
    private readonly config: MailConfig,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport({ url: config.smtpUrl, ...TIMEOUTS } as never);
    this.poller = new WakeablePoller({
      run: (stopped) => this.run(stopped),
      everyMs: config.pollSeconds * 1000,
      wakeOn: outboxEvents,
      onError: (error) => logger.warn(`mail sender: ${error.message}`),
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Stops claiming; waits briefly for a delivery under way (its lease covers a crash). */
  async stop(): Promise<void> {
    await this.poller.stop();
    this.transport.close();
  }

  private async run(stopped: () => boolean): Promise<void> {
    if (Date.now() - this.prunedAt > HOUR_MS) {
      this.prunedAt = Date.now();
      await pruneOutbox(this.db);
    }
    await drainBatches(stopped, {
      claim: () => claimDue(this.db, BATCH),
      handle: async (rows) => {
        for (const row of rows) await this.deliver(row);
      },
      maxBatches: MAX_BATCHES_PER_RUN,
    });
  }

  private async deliver(row: OutboxRow): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.config.from,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body ?? '',
        html: row.html_body ?? undefined,
        messageId: row.message_id,
        date: new Date(Number(row.created_at)),
      });
    } catch (error) {
      const message = (error as Error).message || String(error);
      const gaveUp = await markFailed(this.db, { row, error: message, retrySeconds: this.config.retrySeconds });
      this.logger.warn(`mail ${row.id} to ${row.recipient}: attempt ${row.attempts} failed${gaveUp ? ', given up' : ''}: ${message}`);
      return;
    }
    await markSent(this.db, row);
    this.logger.debug(`mail ${row.id} to ${row.recipient} delivered`);
  }
}
