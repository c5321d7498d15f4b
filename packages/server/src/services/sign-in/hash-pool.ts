/**
 * Password hashing's own bounded pool (docs/security.md, logins stalling other requests): scrypt
 * runs on libuv's thread pool, which file reads and DNS lookups share, so at most `concurrency`
 * hashing jobs run at once and the rest wait in a queue of at most `queueLimit`; past it a login
 * answers 503 with Retry-After at once instead of piling up.
 */
import { ApiError } from '@tools-portal/core';

const HASH_RETRY_AFTER_SECONDS = 5;

export class HashPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly queueLimit: number,
  ) {}

  /** Jobs running or waiting. */
  get pending(): number {
    return this.running + this.waiting.length;
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) {
      this.running++;
    } else {
      if (this.waiting.length >= this.queueLimit) {
        throw new ApiError('unavailable', 'too many sign-ins are being checked right now; try again in a few seconds', {
          retryAfter: HASH_RETRY_AFTER_SECONDS,
        });
      }
      // The finishing job hands its place over: `running` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
