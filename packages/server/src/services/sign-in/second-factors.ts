/**
 * Second factors of a user (docs/security.md): an authenticator app, whose secret is sealed with
 * SECRET_KEY, and its ten recovery codes, stored hashed. Every enrolment, use and removal is a
 * row of the event log.
 */
import { randomBytes } from 'node:crypto';
import { ApiError, type CurrentUser, type User } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent } from '../log/audit.js';
import type { ServiceContext } from '../support/context.js';
import type { FactorName } from '../../mail/templates.js';
import { queueNotice } from '../mail/notices.js';
import type { MailPolicy } from '../mail/outbox.js';
import type { SecretBox } from '../support/secret-box.js';
import { sha256 } from '../support/secrets.js';
import { endSessionsOfUser } from './sessions.js';
import { newTotpSecret, totpStep, totpUri } from './totp.js';

export type SecondFactorMethod = 'totp' | 'passkey' | 'recovery';

const RECOVERY_CODES = 10;
const purposeOf = (userId: number) => `totp:${userId}`;

/** The second factors a user can sign in with, in the contract's order. */
export async function secondFactorsOf(db: Knex, userId: number): Promise<SecondFactorMethod[]> {
  const totp = await db('user_totp').where({ user_id: userId }).whereNotNull('confirmed_at').first('user_id');
  const passkey = await db('passkeys').where({ user_id: userId }).first('id');
  return [...(totp ? (['totp'] as const) : []), ...(passkey ? (['passkey'] as const) : []), ...(totp ? (['recovery'] as const) : [])];
}

/** Starts (or restarts) enrolling an authenticator app: answers the secret and its URI. */
export async function startTotpEnrolment(
  db: Knex,
  secrets: SecretBox,
  { user, issuer }: { user: CurrentUser; issuer: string },
): Promise<{ secret: string; uri: string }> {
  const existing = await db('user_totp').where({ user_id: user.id }).first('confirmed_at');
  if (existing?.confirmed_at) throw new ApiError('conflict', 'an authenticator app is already set up');
  const secret = newTotpSecret();
  const sealed = secrets.encrypt(secret, purposeOf(user.id));
  await db('user_totp')
    .insert({ user_id: user.id, secret_sealed: sealed, created_at: Date.now(), confirmed_at: null, last_step: 0 })
    .onConflict('user_id')
    .merge();
  return { secret, uri: totpUri(secret, { email: user.email, issuer }) };
}

/** Turns the pending enrolment on with its first code; answers the recovery codes, shown this once. */
export async function confirmTotp(ctx: ServiceContext<MailPolicy> & { actor: CurrentUser; secrets: SecretBox }, code: string): Promise<string[]> {
  const { db, secrets, policy, actor: user } = ctx;
  const audit = ctx;
  const now = ctx.now();
  const row = await db('user_totp').where({ user_id: user.id }).first();
  if (!row) throw new ApiError('not_found', 'no authenticator app enrolment is under way; start one first');
  if (row.confirmed_at) throw new ApiError('conflict', 'an authenticator app is already set up');
  const secret = secrets.decrypt(row.secret_sealed, purposeOf(user.id)).toString('utf8');
  const step = totpStep(secret, code, { timestamp: now });
  if (step === undefined) throw new ApiError('invalid_input', 'the code is not valid; check the clock of the device', { field: 'Code' });
  const { codes, rows } = newRecoveryCodeSet(user.id);
  await db.transaction(async (trx) => {
    const updated = await trx('user_totp').where({ user_id: user.id }).whereNull('confirmed_at').update({ confirmed_at: now, last_step: step });
    if (updated === 0) throw new ApiError('conflict', 'an authenticator app is already set up');
    await trx('recovery_codes').where({ user_id: user.id }).delete();
    await trx('recovery_codes').insert(rows);
    await logEvent(trx, audit, { type: 'mfa.enable', event: 'enabled authenticator app (10 recovery codes)' });
    await queueNotice(
      { db: trx, policy, now: Date.now },
      { kind: 'second-factor-added', email: user.email, origin: audit, factors: { names: [{ kind: 'authenticator-app' }] } },
    );
  });
  return codes;
}

/**
 * Checks a second-factor code for a user: a 6-digit authenticator code (accepted once: its step
 * must be later than the last accepted one) or an unused recovery code (used up). Answers which
 * factor it was, or undefined.
 */
export async function useSecondFactorCode(
  db: Knex,
  secrets: SecretBox,
  { userId, code, now }: { userId: number; code: string; now: number },
): Promise<'totp' | 'recovery' | undefined> {
  const trimmed = code.replace(/\s+/g, '');
  if (/^\d{6}$/.test(trimmed)) {
    const row = await db('user_totp').where({ user_id: userId }).whereNotNull('confirmed_at').first('secret_sealed');
    if (!row) return undefined;
    const step = totpStep(secrets.decrypt(row.secret_sealed, purposeOf(userId)).toString('utf8'), trimmed, { timestamp: now });
    if (step === undefined) return undefined;
    // Atomic: of two requests with the same code, one moves last_step on, the other finds it there.
    const accepted = await db('user_totp').where({ user_id: userId }).andWhere('last_step', '<', step).update({ last_step: step });
    return accepted === 1 ? 'totp' : undefined;
  }
  const normalized = normalizeRecoveryCode(trimmed);
  if (normalized.length !== 10) return undefined;
  const used = await db('recovery_codes')
    .where({ user_id: userId, code_hash: sha256(normalized) })
    .whereNull('used_at')
    .update({ used_at: now });
  return used > 0 ? 'recovery' : undefined;
}

/**
 * Removes every second factor of a user (admin reset): authenticator app, recovery codes and
 * passkeys. Answers what was set up ("authenticator app", "passkeys"; a pending enrolment is no factor).
 */
async function removeSecondFactors(db: Knex, userId: number): Promise<FactorName[]> {
  const confirmed = await db('user_totp').where({ user_id: userId }).whereNotNull('confirmed_at').first('user_id');
  const passkeys = await db('passkeys').where({ user_id: userId }).delete();
  await db('user_totp').where({ user_id: userId }).delete();
  await db('recovery_codes').where({ user_id: userId }).delete();
  return [...(confirmed ? [{ kind: 'authenticator-app' } as const] : []), ...(passkeys > 0 ? [{ kind: 'passkeys' } as const] : [])];
}

/**
 * An admin's Reset two-factor: removes the user's second factors, ends their sessions and logs
 * it, in one transaction; the user is told by mail when a factor was there to remove.
 */
export async function resetSecondFactors(ctx: ServiceContext<MailPolicy>, user: User): Promise<void> {
  const { policy } = ctx;
  const audit = ctx;
  await ctx.db.transaction(async (trx) => {
    const removed = await removeSecondFactors(trx, user.id);
    const ended = await endSessionsOfUser(trx, user.id);
    await logEvent(trx, audit, {
      type: 'mfa.reset',
      event: `reset two-factor of ${user.email} (${ended} sessions ended)`,
      subject: { client: user.client.name, user: user.email },
    });
    // From the admin's address (the audit's origin).
    if (removed.length > 0)
      await queueNotice(
        { db: trx, policy, now: Date.now },
        { kind: 'second-factor-removed', email: user.email, origin: audit, factors: { names: removed, byAdmin: true } },
      );
  });
}

/** A user's ten new recovery codes, and their rows (hashed) for `recovery_codes`. */
export function newRecoveryCodeSet(userId: number): { codes: string[]; rows: { user_id: number; code_hash: string }[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  return { codes, rows: codes.map((plain) => ({ user_id: userId, code_hash: sha256(normalizeRecoveryCode(plain)) })) };
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx`, 10 characters of a 31-letter alphabet (about 50 bits). */
function newRecoveryCode(): string {
  let letters = '';
  // Rejection sampling: only bytes below a multiple of the alphabet's size, so no letter is likelier.
  const below = 256 - (256 % RECOVERY_ALPHABET.length);
  while (letters.length < 10) {
    for (const byte of randomBytes(16)) if (byte < below && letters.length < 10) letters += RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length];
  }
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}
