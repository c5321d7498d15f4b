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
import { drainBatches, WakeablePoller } from '../services/support/wakeable-poller.js';

const BATCH = 10;
// A run ends after this many batches; the next wake or poll goes on.
const MAX_BATCHES_PER_RUN = 20;
// Attempts under way at once: one slow receiver does not hold up the others for long.
const PARALLEL = 4;

export interface WebhookSenderDeps {
  db: Knex;
  config: Pick<Config, 'webhooks' | 'publicUrl' | 'mail' | 'defaultLanguage' | 'branding'>;
  secrets: SecretBox;
  logger: Logger;
}

export class WebhookSender {
  private readonly poller: WakeablePoller;
  private prunedAt = 0;

  constructor(
    private readonly deps: WebhookSenderDeps,
    private readonly now: () => number = Date.now,
  ) {
    this.poller = new WakeablePoller({
      run: (stopped) => this.run(stopped),
      everyMs: deps.config.webhooks.pollSeconds * 1000,
      wakeOn: deliveryEvents,
      onError: (error) => deps.logger.warn(`webhook sender: ${error.message}`),
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Stops claiming; waits briefly for attempts under way (their lease covers a crash). */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  private async run(stopped: () => boolean): Promise<void> {
    const { db } = this.deps;
    if (this.now() - this.prunedAt > HOUR_MS) {
      this.prunedAt = this.now();
      await pruneDeliveries(db, this.now());
    }
    await drainBatches(stopped, {
      claim: () => claimDueDeliveries(db, BATCH, this.now()),
      handle: async (rows) => {
        for (let start = 0; start < rows.length; start += PARALLEL) {
          await Promise.all(rows.slice(start, start + PARALLEL).map((row) => this.deliver(row)));
        }
      },
      maxBatches: MAX_BATCHES_PER_RUN,
    });
  }

  private async deliver(row: DeliveryRow): Promise<void> {
    const { db, config, secrets, logger } = this.deps;
    const outcome = await deliverClaimed({ db, secrets, policy: config, now: this.now }, row);
    if (outcome.error) logger.warn(`webhook delivery ${row.id} (hook ${row.webhook_id}): attempt ${row.attempts} failed: ${outcome.error}`);
    else logger.debug(`webhook delivery ${row.id} (hook ${row.webhook_id}) delivered`);
  }
}
