/**
 * The Account page's self-service on the authenticator app (docs/api.md): turning it off and making
 * new recovery codes. Both ask the caller to prove it is them again, with their password or a
 * second-factor code, admitted by the regulator like a password change (the same limits and bans);
 * both are logged and noticed by mail in the transaction of the change.
 */
import { conflict, invalidInput, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent, logRepeated, type Audit } from '../log/audit.js';
import { queueNotice } from '../mail/notices.js';
import type { MailPolicy } from '../mail/outbox.js';
import type { SecretBox } from '../support/secret-box.js';
import { originOf, type ServiceContext } from '../support/context.js';
import { addressSubject, emailSubject, type BruteForcePolicy } from './brute-force.js';
import type { PasswordHasher } from './passwords.js';
import { attempt } from './regulator.js';
import { newRecoveryCodeSet, secondFactorsOf, useSecondFactorCode } from './second-factors.js';
import { signInCounters, signInRegulator } from './sign-in-attempts.js';
import type { MfaPolicy } from './sign-in.js';

export type AccountFactorsContext = ServiceContext<BruteForcePolicy & MailPolicy & MfaPolicy> & {
  actor: CurrentUser;
  hasher: PasswordHasher;
  secrets: SecretBox;
};

/** The caller's proof: their password, or an authenticator or recovery code (one of the two). */
export type Proof = { password: string; code?: undefined } | { code: string; password?: undefined };

/** The hint a wrong code gets: the usual cause is a phone whose clock is off. */
const WRONG_CODE = 'the code is not valid; check the clock of the device';
const WRONG_PASSWORD = 'the password is wrong';

/** Checks the proof through the regulator; a wrong one is a 400 naming its field, counted like a wrong password. */
async function proveItIsYou(ctx: AccountFactorsContext, proof: Proof, what: string): Promise<void> {
  const { db, policy, actor: user, hasher, secrets } = ctx;
  const audit: Audit & { actor: CurrentUser } = { actor: user, ...originOf(ctx) };
  const subjects = [emailSubject(user.email), addressSubject(audit.ip)];
  await attempt(signInRegulator(ctx), signInCounters(policy, subjects), async () => {
    let ok: boolean;
    if (proof.code !== undefined) ok = (await useSecondFactorCode(db, secrets, { userId: user.id, code: proof.code, now: ctx.now() })) !== undefined;
    else {
      const row = await db('users').where({ id: user.id }).first('password_hash');
      ok = row?.password_hash ? (await hasher.verify(row.password_hash, proof.password)).ok : (await hasher.verifyNothing(proof.password)).ok;
    }
    if (ok) return { ok: true, value: undefined };
    const field = proof.code !== undefined ? 'Code' : 'Password';
    return {
      ok: false,
      error: invalidInput(field, field === 'Code' ? WRONG_CODE : WRONG_PASSWORD),
      refuse: (trx) =>
        logRepeated(trx, audit, {
          type: field === 'Code' ? 'mfa.failure' : 'login.failure',
          event: `${what} refused: wrong ${field === 'Code' ? 'code' : 'password'}`,
        }),
    };
  });
}

async function hasAuthenticatorApp(db: Knex, userId: number): Promise<boolean> {
  return (await db('user_totp').where({ user_id: userId }).whereNotNull('confirmed_at').first('user_id')) !== undefined;
}

/** Whether MFA_REQUIRED covers this user (the rule of services/sign-in/sign-in.ts, sign-in method aside). */
const mfaCovers = (policy: MfaPolicy, user: CurrentUser) => policy.mfaRequired === 'all' || (policy.mfaRequired === 'admins' && user.admin);

/**
 * Turns the caller's authenticator app off, with its recovery codes. Refused while it is the last
 * second factor of an account that MFA_REQUIRED covers: a passkey must be added first.
 */
export async function disableTotp(ctx: AccountFactorsContext, proof: Proof): Promise<void> {
  const { db, policy, actor: user } = ctx;
  if (!(await hasAuthenticatorApp(db, user.id))) throw conflict('the authenticator app is not set up');
  if (mfaCovers(policy, user) && !(await secondFactorsOf(db, user.id)).includes('passkey')) {
    throw conflict('your account must keep a second factor (MFA_REQUIRED): add a passkey before turning the authenticator app off');
  }
  await proveItIsYou(ctx, proof, 'turning the authenticator app off');
  await db.transaction(async (trx) => {
    const removed = await trx('user_totp').where({ user_id: user.id }).delete();
    if (removed === 0) throw conflict('the authenticator app is not set up');
    const codes = await trx('recovery_codes').where({ user_id: user.id }).whereNull('used_at').delete();
    await trx('recovery_codes').where({ user_id: user.id }).delete();
    await logEvent(trx, ctx, { type: 'mfa.disable', event: `turned off authenticator app (${codes} unused recovery codes removed)` });
    await queueNotice(
      { db: trx, policy, now: Date.now },
      { kind: 'second-factor-removed', email: user.email, origin: originOf(ctx), factors: { names: [{ kind: 'authenticator-app' }] } },
    );
  });
}

/** New recovery codes for the caller's authenticator app; the old ones stop working. Answers them, shown this once. */
export async function renewRecoveryCodes(ctx: AccountFactorsContext, proof: Proof): Promise<string[]> {
  const { db, policy, actor: user } = ctx;
  if (!(await hasAuthenticatorApp(db, user.id))) throw conflict('recovery codes come with the authenticator app: set it up first');
  await proveItIsYou(ctx, proof, 'new recovery codes');
  const { codes, rows } = newRecoveryCodeSet(user.id);
  await db.transaction(async (trx) => {
    // The app may have been turned off meanwhile: codes without it would be a factor of their own.
    if (!(await hasAuthenticatorApp(trx, user.id))) throw conflict('recovery codes come with the authenticator app: set it up first');
    await trx('recovery_codes').where({ user_id: user.id }).delete();
    await trx('recovery_codes').insert(rows);
    await logEvent(trx, ctx, { type: 'recovery.generate', event: `made ${codes.length} new recovery codes (the old ones no longer work)` });
    await queueNotice({ db: trx, policy, now: Date.now }, { kind: 'recovery-codes-renewed', email: user.email, origin: originOf(ctx) });
  });
  return codes;
}

/** How many of the user's recovery codes are unused. */
export async function recoveryCodesLeft(db: Knex, userId: number): Promise<number> {
  const row = await db('recovery_codes').where({ user_id: userId }).whereNull('used_at').count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}
