/**
 * Password hashing with scrypt (scrypt-kdf). A hash made with other parameters than configured is
 * re-made at the next successful login.
 *
 * Timing (docs/security.md, user enumeration): every failed check costs the same scrypt work, that
 * of one check at the *target* cost: the highest cost among the configured one and every stored
 * hash (read at start, raised when a costlier hash turns up). An unknown email is checked against
 * a dummy hash at that cost; a wrong password for a hash of lower cost is padded with hashes of
 * cost 2^s, 2^s, 2^(s+1) … 2^(target-1), which add up to 2^target (scrypt's work is linear in N).
 */
import type { Knex } from 'knex';
import * as scryptModule from 'scrypt-kdf';
import { HashPool } from './hash-pool.js';
import type { Branding } from '../../config.js';

// The package declares named exports but ships one default-exported class with static methods.
const scrypt = (scryptModule as unknown as { default: typeof scryptModule }).default;

const R = 8;
const P = 1;

export interface PasswordCheck {
  ok: boolean;
  needsRehash: boolean;
}

export class PasswordHasher {
  private readonly dummies = new Map<number, Promise<Uint8Array>>();
  /** logN of the costliest check the server must be ready to do; failed checks all cost this much. */
  private targetLogN: number;
  /** Password checks started by this process (tests read it). */
  checksStarted = 0;
  /** scrypt work done by this process, in units of N (2^logN); the dummy hashes are not counted. */
  work = 0;

  constructor(
    readonly logN: number,
    /** Every hash and check runs through it; without one, nothing bounds them (tests of hashes alone). */
    readonly pool: HashPool = new HashPool(Number.MAX_SAFE_INTEGER, 0),
  ) {
    this.targetLogN = logN;
  }

  /** Raises the target cost to that of the costliest stored hash; run once at start. */
  async calibrate(db: Knex): Promise<void> {
    const rows: { password_hash: string }[] = await db('users').whereNotNull('password_hash').select('password_hash');
    for (const row of rows) {
      const logN = logNOf(row.password_hash);
      if (logN !== undefined && logN > this.targetLogN) this.targetLogN = logN;
    }
  }

  async hash(password: string): Promise<string> {
    return this.pool.run(async () => Buffer.from(await this.kdf(password, this.logN)).toString('base64'));
  }

  verify(stored: string, password: string): Promise<PasswordCheck> {
    return this.pool.run(() => this.check(stored, password));
  }

  /** Does the work a failed check does, so an unknown email answers like a wrong password. */
  verifyNothing(password: string): Promise<PasswordCheck> {
    return this.pool.run(() => this.checkNothing(password));
  }

  private async check(stored: string, password: string): Promise<PasswordCheck> {
    const key = Buffer.from(stored, 'base64');
    const params = scrypt.viewParams(key);
    if (params.logN > this.targetLogN) this.targetLogN = params.logN;
    this.checksStarted++;
    this.work += 2 ** params.logN;
    const ok = await scrypt.verify(key, password);
    if (!ok) await this.padFrom(params.logN, password);
    return { ok, needsRehash: ok && (params.logN !== this.logN || params.r !== R || params.p !== P) };
  }

  private async checkNothing(password: string): Promise<PasswordCheck> {
    const logN = this.targetLogN;
    let dummy = this.dummies.get(logN);
    if (!dummy) {
      dummy = scrypt.kdf('no user has this password', { logN, r: R, p: P });
      this.dummies.set(logN, dummy);
    }
    const key = await dummy;
    this.checksStarted++;
    this.work += 2 ** logN;
    await scrypt.verify(key, password);
    return { ok: false, needsRehash: false };
  }

  // 2^s + 2^s + 2^(s+1) + … + 2^(t-1) = 2^t: a failed check at cost s ends up costing the target t.
  private async padFrom(logN: number, password: string): Promise<void> {
    for (let step = logN; step < this.targetLogN; step++) await this.kdf(password, step);
  }

  private async kdf(password: string, logN: number): Promise<Uint8Array> {
    this.work += 2 ** logN;
    return scrypt.kdf(password, { logN, r: R, p: P });
  }
}

function logNOf(stored: string): number | undefined {
  try {
    return scrypt.viewParams(Buffer.from(stored, 'base64')).logN;
  } catch {
    return undefined;
  }
}

/** What the password rules read of the configuration: the portal's name, which a password may not contain. */
export interface PasswordPolicy {
  branding: Pick<Branding, 'portalName'>;
}
