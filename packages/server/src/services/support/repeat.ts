/**
 * Runs a job every `intervalMs` until stopped, one run after another (a tick during a run queues
 * the next): the expired grants' sweep (services/access/grant-expiry.ts) and the access reviews'
 * job (services/reviews/review-close.ts). A failed run is reported and the next tick tries again;
 * stopping waits for the runs under way. Jobs that are also woken use the wakeable poller.
 */
export function repeatEvery(intervalMs: number, { run, onError }: { run: () => Promise<void>; onError: (error: unknown) => void }): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        await run();
      } catch (error) {
        onError(error);
      }
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
