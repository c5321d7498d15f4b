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

const BATCH = 20;
// A run ends after this many batches; the next wake or poll goes on.
const MAX_BATCHES_PER_RUN = 50;
// Together far below the outbox's lease, so a slow server cannot make two senders overlap.
const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };
const STOP_WAIT_MS = 2_000;

export class MailSender {
  private readonly transport: Transporter;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private prunedAt = 0;
  private readonly onQueued = () => this.wake();

  constructor(
    private readonly db: Knex,
    private readonly config: MailConfig,
    private readonly logger: Logger,
  ) {
    this.transport = nodemailer.createTransport({ url: config.smtpUrl, ...TIMEOUTS } as never);
  }

  start(): void {
    outboxEvents.on('queued', this.onQueued);
    this.timer = setInterval(() => this.wake(), this.config.pollSeconds * 1000);
    this.timer.unref();
    this.wake();
  }

  /** Delivers what is due now; a wake during a run makes the run go round once more. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Stops claiming; waits briefly for a delivery under way (its lease covers a crash). */
  async stop(): Promise<void> {
    this.stopped = true;
    outboxEvents.off('queued', this.onQueued);
    clearInterval(this.timer);
    if (this.running) await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    this.transport.close();
  }

  private async run(): Promise<void> {
    try {
      if (Date.now() - this.prunedAt > HOUR_MS) {
        this.prunedAt = Date.now();
        await pruneOutbox(this.db);
      }
      for (let batch = 0; batch < MAX_BATCHES_PER_RUN && !this.stopped; batch++) {
        const rows = await claimDue(this.db, BATCH);
        if (rows.length === 0) return;
        for (const row of rows) await this.deliver(row);
      }
    } catch (error) {
      if (!this.stopped) this.logger.warn(`mail sender: ${(error as Error).message}`);
    }
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
