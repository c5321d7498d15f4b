/**
 * Password hashing with scrypt (scrypt-kdf). The hash runs on libuv's thread pool, so the event
 * loop stays free while logins hash. A hash made with a lower cost than configured is re-made
 * at the next successful login.
 */
import * as scryptModule from 'scrypt-kdf';

// The package declares named exports but ships one default-exported class with static methods.
const scrypt = (scryptModule as unknown as { default: typeof scryptModule }).default;

export interface PasswordCheck {
  ok: boolean;
  needsRehash: boolean;
}

export class PasswordHasher {
  private dummy: Promise<string> | undefined;
  /** Password checks started by this process (tests read it). */
  checksStarted = 0;

  constructor(readonly logN: number) {}

  async hash(password: string): Promise<string> {
    const key = await scrypt.kdf(password, { logN: this.logN, r: 8, p: 1 });
    return Buffer.from(key).toString('base64');
  }

  async verify(stored: string, password: string): Promise<PasswordCheck> {
    const key = Buffer.from(stored, 'base64');
    this.checksStarted++;
    const ok = await scrypt.verify(key, password);
    return { ok, needsRehash: ok && scrypt.viewParams(key).logN < this.logN };
  }

  /** Spends the time a real check would, so an unknown email answers like a wrong password. */
  async verifyNothing(password: string): Promise<PasswordCheck> {
    this.dummy ??= this.hash('no user has this password');
    const dummy = await this.dummy;
    await this.verify(dummy, password);
    return { ok: false, needsRehash: false };
  }
}
