/**
 * The webhook sender every instance runs (docs/webhooks.md): it claims due deliveries
 * (services/webhooks/deliveries.ts) and makes one attempt of each. It runs when a transaction of
 * this process queued deliveries, and every WEBHOOK_POLL_SECONDS for retries, counted entries
 * whose count is final, and deliveries that another instance queued or left behind when it crashed.
 */
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { claimDueDeliveries, deliverClaimed, pruneDeliveries, type DeliveryRow } from '../services/webhooks/deliveries.js';
import { deliveryEvents } from '../services/webhooks/fan-out.js';
import { HOUR_MS } from '../services/support/outbox-rows.js';
import type { SecretBox } from '../services/support/secret-box.js';

const BATCH = 10;
// A run ends after this many batches; the next wake or poll goes on.
const MAX_BATCHES_PER_RUN = 20;
// Attempts under way at once: one slow receiver does not hold up the others for long.
const PARALLEL = 4;
const STOP_WAIT_MS = 2_000;

export interface WebhookSenderDeps {
  db: Knex;
  config: Pick<Config, 'webhooks' | 'publicUrl' | 'mail' | 'defaultLanguage' | 'branding'>;
  secrets: SecretBox;
  logger: Logger;
}

export class WebhookSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private prunedAt = 0;
  private readonly onQueued = () => this.wake();

  constructor(
    private readonly deps: WebhookSenderDeps,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    deliveryEvents.on('queued', this.onQueued);
    this.timer = setInterval(() => this.wake(), this.deps.config.webhooks.pollSeconds * 1000);
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

  /** Stops claiming; waits briefly for attempts under way (their lease covers a crash). */
  async stop(): Promise<void> {
    this.stopped = true;
    deliveryEvents.off('queued', this.onQueued);
    clearInterval(this.timer);
    if (this.running) await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
  }

  private async run(): Promise<void> {
    const { db, logger } = this.deps;
    try {
      if (this.now() - this.prunedAt > HOUR_MS) {
        this.prunedAt = this.now();
        await pruneDeliveries(db, this.now());
      }
      for (let batch = 0; batch < MAX_BATCHES_PER_RUN && !this.stopped; batch++) {
        const rows = await claimDueDeliveries(db, BATCH, this.now());
        if (rows.length === 0) return;
        for (let start = 0; start < rows.length; start += PARALLEL) {
          await Promise.all(rows.slice(start, start + PARALLEL).map((row) => this.deliver(row)));
        }
      }
    } catch (error) {
      if (!this.stopped) logger.warn(`webhook sender: ${(error as Error).message}`);
    }
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    const { db, config, secrets, logger } = this.deps;
    const outcome = await deliverClaimed({ db, secrets, policy: config, now: this.now }, row);
    if (outcome.error) logger.warn(`webhook delivery ${row.id} (hook ${row.webhook_id}): attempt ${row.attempts} failed: ${outcome.error}`);
    else logger.debug(`webhook delivery ${row.id} (hook ${row.webhook_id}) delivered`);
  }
}
