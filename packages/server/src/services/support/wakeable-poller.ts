/**
 * A job that runs when woken and on a timer, one run at a time: the mail sender (mail/sender.ts)
 * and the webhook sender (webhooks/sender.ts) drain their outboxes with it. A wake during a run
 * makes the job run once more after it (however many wakes came), so that rows queued while a run
 * was claiming are not left for the next poll. Stopping waits, a little while at most, for the run
 * under way; nothing runs after it.
 */
import type { EventEmitter } from 'node:events';

const STOP_WAIT_MS = 2_000;

export interface WakeablePollerOptions {
  /** One run of the job; a long run ends early once `stopped()` says so. */
  run: (stopped: () => boolean) => Promise<void>;
  /** How often it runs unwoken (retries, rows that other instances queued or left behind). */
  everyMs: number;
  /** Each `queued` event of this emitter wakes it (a transaction of this process queued rows). */
  wakeOn: EventEmitter;
  /** What a run that failed says, unless it failed because of the stop. */
  onError: (error: Error) => void;
  /** How long `stop` waits for the run under way at most (its rows' leases cover the rest). */
  stopWaitMs?: number;
}

export class WakeablePoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly onQueued = () => this.wake();

  constructor(private readonly options: WakeablePollerOptions) {}

  start(): void {
    this.options.wakeOn.on('queued', this.onQueued);
    this.timer = setInterval(() => this.wake(), this.options.everyMs);
    this.timer.unref();
    this.wake();
  }

  /** Runs the job now, or once more after the run under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runOnce().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.options.wakeOn.off('queued', this.onQueued);
    clearInterval(this.timer);
    const wait = this.options.stopWaitMs ?? STOP_WAIT_MS;
    if (this.running) await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, wait).unref())]);
  }

  private async runOnce(): Promise<void> {
    try {
      await this.options.run(() => this.stopped);
    } catch (error) {
      if (!this.stopped) this.options.onError(error as Error);
    }
  }
}

/**
 * One run of an outbox's sender: claims a batch and handles it, until none is due, the stop, or
 * `maxBatches` (the next wake or poll goes on).
 */
export async function drainBatches<Row>(
  stopped: () => boolean,
  { claim, handle, maxBatches }: { claim: () => Promise<Row[]>; handle: (rows: Row[]) => Promise<void>; maxBatches: number },
): Promise<void> {
  for (let batch = 0; batch < maxBatches && !stopped(); batch++) {
    const rows = await claim();
    if (rows.length === 0) return;
    await handle(rows);
  }
}
