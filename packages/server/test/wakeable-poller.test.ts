/**
 * The wakeable poller that drains the mail outbox and the webhook deliveries
 * (services/support/wakeable-poller.ts): one run at a time, a wake during a run runs it once more,
 * stop waits for the run under way, and nothing runs after stop.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drainBatches, WakeablePoller } from '../src/services/support/wakeable-poller.js';

/** A job whose runs each wait until the test lets them end. */
function gatedJob() {
  const job = {
    started: 0,
    ended: 0,
    gates: [] as (() => void)[],
    /** Lets the oldest waiting run end. */
    release: () => job.gates.shift()?.(),
    run: async () => {
      job.started++;
      await new Promise<void>((resolve) => job.gates.push(resolve));
      job.ended++;
    },
  };
  return job;
}

const pollers: WakeablePoller[] = [];

function pollerOf(run: () => Promise<void>, wakeOn = new EventEmitter(), onError: (error: Error) => void = () => {}) {
  const poller = new WakeablePoller({ run, everyMs: 3_600_000, wakeOn, onError, stopWaitMs: 60_000 });
  pollers.push(poller);
  return poller;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
});

describe('the wakeable poller', () => {
  it('runs at start and on each queued event, one run at a time', async () => {
    const job = gatedJob();
    const events = new EventEmitter();
    const poller = pollerOf(job.run, events);
    poller.start();
    await expect.poll(() => job.started).toBe(1);
    events.emit('queued');
    job.release();
    await expect.poll(() => job.started).toBe(2);
    expect(job.ended).toBe(1);
    job.release();
    await expect.poll(() => job.ended).toBe(2);
  });

  it('runs once more after the run under way, however many wakes came during it', async () => {
    const job = gatedJob();
    const poller = pollerOf(job.run);
    poller.wake();
    await expect.poll(() => job.started).toBe(1);
    poller.wake();
    poller.wake();
    poller.wake();
    expect(job.started).toBe(1);
    job.release();
    await expect.poll(() => job.started).toBe(2);
    job.release();
    await expect.poll(() => job.ended).toBe(2);
    await poller.stop();
    expect(job.started).toBe(2);
  });

  it('stop waits for the run under way, and nothing runs after it', async () => {
    const job = gatedJob();
    const events = new EventEmitter();
    const poller = pollerOf(job.run, events);
    poller.start();
    await expect.poll(() => job.started).toBe(1);
    poller.wake(); // would run again after this run, but the stop comes first
    let stopped = false;
    const stopping = poller.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    job.release();
    await stopping;
    expect(job.ended).toBe(1);
    poller.wake();
    events.emit('queued');
    expect(job.started).toBe(1);
    expect(events.listenerCount('queued')).toBe(0);
  });

  it('polls on its timer until stopped', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const poller = new WakeablePoller({ run: async () => void runs++, everyMs: 1_000, wakeOn: new EventEmitter(), onError: () => {} });
    pollers.push(poller);
    poller.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(4);
    await poller.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(4);
  });

  it('says what failed, and runs again on the next wake', async () => {
    const errors: string[] = [];
    let runs = 0;
    const poller = pollerOf(
      async () => {
        runs++;
        throw new Error(`run ${runs} failed`);
      },
      new EventEmitter(),
      (error) => void errors.push(error.message),
    );
    poller.wake();
    await expect.poll(() => errors).toEqual(['run 1 failed']);
    poller.wake();
    await expect.poll(() => errors).toEqual(['run 1 failed', 'run 2 failed']);
  });
});

describe('drainBatches', () => {
  it('handles batches until none is due, at most maxBatches, and not after the stop', async () => {
    const claimed = (left: number[]) => async () => left.splice(0, 2);
    const handled: number[][] = [];
    const handle = async (rows: number[]) => void handled.push(rows);
    await drainBatches(() => false, { claim: claimed([1, 2, 3]), handle, maxBatches: 10 });
    expect(handled).toEqual([[1, 2], [3]]);
    handled.length = 0;
    await drainBatches(() => false, { claim: claimed([1, 2, 3, 4, 5]), handle, maxBatches: 2 });
    expect(handled).toEqual([
      [1, 2],
      [3, 4],
    ]);
    handled.length = 0;
    let stop = false;
    await drainBatches(() => stop, {
      claim: claimed([1, 2, 3, 4]),
      handle: async (rows) => {
        handled.push(rows);
        stop = true;
      },
      maxBatches: 10,
    });
    expect(handled).toEqual([[1, 2]]);
  });
});
