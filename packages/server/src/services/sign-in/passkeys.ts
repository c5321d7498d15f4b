/**
 * Passkeys (docs/security.md): WebAuthn credentials of a user, a second factor after the password
 * and a way in alone (discoverable, with user verification). The relying party is PUBLIC_URL: its
 * host is the RP ID, its origin the only accepted origin. Challenges live in the database (any
 * instance finishes a ceremony another started), are used once (a conditional delete) and expire
 * in 5 minutes; the table is swept and capped, and sign-in options are limited per address. Signature counters must move forward. A refused assertion counts toward the
 * brute-force limits like a wrong password (services/sign-in/regulator.ts).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { ApiError, type CurrentUser, type Passkey } from '@tools-portal/core';
import type { Knex } from 'knex';
import { inWindow, logEvent, logRepeated, type EventSubject } from '../log/audit.js';
import { insertBounded } from '../support/bounded-rows.js';
import type { BruteForcePolicy } from './brute-force.js';
import { queueNotice } from '../mail/notices.js';
import type { MailPolicy } from '../mail/outbox.js';
import { hitRateLimit, type RateLimit } from '../support/rate-limits.js';
import { originOf, type Origin, type ServiceContext, type ActorContext } from '../support/context.js';
import { attemptSubjects, signInAttempt } from './sign-in-attempts.js';
import { completeSignIn, finishPendingSignIn, openPendingSignIn, type PendingRow, type SignedIn, type SignInPolicy } from './sign-in.js';
import { currentUserById } from '../users/users.js';

export const CHALLENGE_MS = 5 * 60 * 1000;

/** The relying party of PUBLIC_URL. */
interface RelyingParty {
  id: string;
  origin: string;
}

function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin };
}

interface PasskeyRow {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: string;
  name: string;
  created_at: number | string;
}

const present = (row: Pick<PasskeyRow, 'id' | 'name' | 'created_at'>): Passkey => ({
  id: row.id,
  name: row.name,
  createdTimestamp: new Date(Number(row.created_at)).toISOString(),
});

const transportsOf = (row: PasskeyRow) => (row.transports ? (row.transports.split(',') as AuthenticatorTransportFuture[]) : undefined);

/** PASSKEY_CHALLENGES_PER_ADDRESS and PASSKEY_CHALLENGES_MAX (docs/configuration.md). */
export interface ChallengePolicy {
  passkeyChallengesPerAddress: number;
  passkeyChallengesMax: number;
}

/** Stores a challenge; the table is swept and capped (services/support/bounded-rows.ts). */
/** A WebAuthn challenge: what it is for, and for which user (none: a passkey sign-in). */
interface Challenge {
  challenge: string;
  purpose: 'registration' | 'authentication';
  userId: number | null;
}

async function storeChallenge(db: Knex, policy: ChallengePolicy, { challenge, purpose, userId }: Challenge): Promise<void> {
  const now = Date.now();
  await insertBounded(db, 'webauthn_challenges', {
    row: { challenge, purpose, user_id: userId, expires_at: now + CHALLENGE_MS },
    max: policy.passkeyChallengesMax,
    now,
  });
}

/**
 * Anyone may ask for sign-in options (docs/security.md, Anonymous traffic): an address gets at
 * most PASSKEY_CHALLENGES_PER_ADDRESS per window of a challenge's life, counted before anything is
 * stored, so that refused calls leave no challenge; past it 429 until the window ends, and one
 * `login.blocked` row per address and window counts the refusals.
 */
async function admitChallenge(db: Knex, policy: ChallengePolicy, info: Origin): Promise<void> {
  const now = Date.now();
  const rate: RateLimit = { kind: 'passkey-challenge', limit: policy.passkeyChallengesPerAddress, windowMs: CHALLENGE_MS };
  const hit = await hitRateLimit(db, rate, { subject: info.ip, now });
  if (hit.allowed) return;
  await logRepeated(
    db,
    { actor: null, ...info },
    { type: 'login.blocked', event: 'passkey sign-in blocked: too many started from this address', group: inWindow(hit.windowStart, CHALLENGE_MS) },
  );
  const retryAfter = Math.max(1, Math.ceil((hit.windowStart + CHALLENGE_MS - now) / 1000));
  throw new ApiError('too_many_requests', `too many passkey sign-ins started from this address; try again in ${Math.ceil(retryAfter / 60)} minutes`, {
    retryAfter,
  });
}

/** Takes a challenge once: true for the one caller that deleted it while it was still valid. */
async function takeChallenge(db: Knex, { challenge, purpose, userId }: Challenge): Promise<boolean> {
  if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 200) return false;
  const query = db('webauthn_challenges').where({ challenge, purpose }).andWhere('expires_at', '>', Date.now());
  const taken = await (userId === null ? query.whereNull('user_id') : query.andWhere('user_id', userId)).delete();
  return taken === 1;
}

export async function listPasskeys(db: Knex, userId: number): Promise<Passkey[]> {
  const rows: PasskeyRow[] = await db('passkeys').where({ user_id: userId }).orderBy('id');
  return rows.map(present);
}

/** Registration options for the browser's ceremony, naming the portal (PORTAL_NAME); the challenge is stored for this user. */
export async function passkeyRegistrationOptions(
  ctx: ServiceContext<ChallengePolicy & { publicUrl: string; branding: { portalName: string } }> & { actor: CurrentUser },
): Promise<unknown> {
  const { db, policy, actor: user } = ctx;
  const rp = relyingPartyOf(policy.publicUrl);
  const existing: PasskeyRow[] = await db('passkeys').where({ user_id: user.id });
  const options = await generateRegistrationOptions({
    rpName: policy.branding.portalName,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(`user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    // Discoverable, so that the passkey can sign in alone ("Sign in with a passkey").
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: [-7, -8, -257],
  });
  await storeChallenge(db, policy, { challenge: options.challenge, purpose: 'registration', userId: user.id });
  return options;
}

/** A short name from a user agent: "Chrome on Linux", or "Passkey". */
function passkeyNameFromUserAgent(userAgent: string): string {
  const browser = [
    ['Edg/', 'Edge'],
    ['Firefox/', 'Firefox'],
    ['Chrome/', 'Chrome'],
    ['Safari/', 'Safari'],
  ].find(([token]) => userAgent.includes(token!))?.[1];
  const system = [
    ['Android', 'Android'],
    ['iPhone', 'iPhone'],
    ['iPad', 'iPad'],
    ['Windows', 'Windows'],
    ['Mac OS', 'macOS'],
    ['Linux', 'Linux'],
  ].find(([token]) => userAgent.includes(token!))?.[1];
  if (!browser) return 'Passkey';
  return system ? `${browser} on ${system}` : browser;
}

/** Checks a registration answer against this user's stored challenge and keeps the passkey. */
export async function registerPasskey(
  ctx: ServiceContext<MailPolicy> & { actor: CurrentUser },
  { response, name }: { response: unknown; name?: string },
): Promise<Passkey> {
  const { db, policy, actor: user } = ctx;
  const audit = ctx;
  const rp = relyingPartyOf(policy.publicUrl);
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: (challenge) => takeChallenge(db, { challenge, purpose: 'registration', userId: user.id }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    throw new ApiError('invalid_input', `the passkey was not accepted: ${error instanceof Error ? error.message : 'invalid answer'}`, { field: 'response' });
  }
  if (!verification.verified) throw new ApiError('invalid_input', 'the passkey was not accepted', { field: 'response' });
  const { credential } = verification.registrationInfo;
  const now = Date.now();
  const row = {
    user_id: user.id,
    credential_id: credential.id,
    public_key: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: (credential.transports ?? []).join(',').slice(0, 200),
    name: name ?? passkeyNameFromUserAgent(audit.userAgent),
    created_at: now,
  };
  return db.transaction(async (trx) => {
    if (await trx('passkeys').where({ credential_id: credential.id }).first('id')) throw new ApiError('conflict', 'this passkey is already registered');
    const [inserted] = await trx('passkeys').insert(row).returning('id');
    const id = typeof inserted === 'object' ? (inserted as { id: number }).id : (inserted as number);
    await logEvent(trx, audit, { type: 'passkey.add', event: `added passkey "${row.name}"` });
    await queueNotice(
      { db: trx, policy, now: Date.now },
      { kind: 'second-factor-added', email: user.email, origin: audit, factors: { names: [{ kind: 'passkey', name: row.name }] } },
    );
    return present({ id, name: row.name, created_at: now });
  });
}

async function ownPasskey(db: Knex, userId: number, id: number): Promise<PasskeyRow> {
  const row: PasskeyRow | undefined = await db('passkeys').where({ id, user_id: userId }).first();
  if (!row) throw new ApiError('not_found', `passkey ${id} does not exist`);
  return row;
}

export async function renamePasskey(ctx: ActorContext, { id, name }: { id: number; name: string }): Promise<Passkey> {
  const audit = ctx;
  return ctx.db.transaction(async (trx) => {
    const row = await ownPasskey(trx, audit.actor.id, id);
    await trx('passkeys').where({ id }).update({ name });
    await logEvent(trx, audit, { type: 'passkey.rename', event: `renamed passkey "${row.name}" to "${name}"` });
    return present({ ...row, name });
  });
}

export async function deletePasskey(ctx: ServiceContext<MailPolicy> & { actor: CurrentUser }, id: number): Promise<void> {
  const { policy } = ctx;
  const audit = ctx;
  await ctx.db.transaction(async (trx) => {
    const row = await ownPasskey(trx, audit.actor.id, id);
    await trx('passkeys').where({ id }).delete();
    await logEvent(trx, audit, { type: 'passkey.remove', event: `removed passkey "${row.name}"` });
    await queueNotice(
      { db: trx, policy, now: Date.now },
      { kind: 'second-factor-removed', email: audit.actor.email, origin: audit, factors: { names: [{ kind: 'passkey', name: row.name }] } },
    );
  });
}

/**
 * Authentication options: for a pending sign-in, its user's passkeys; without one, a discoverable
 * ceremony with user verification required (the passkey is the whole sign-in).
 */
export async function passkeyAuthenticationOptions(ctx: ServiceContext<ChallengePolicy & { publicUrl: string }>, mfaToken?: string): Promise<unknown> {
  const { db, policy } = ctx;
  const rp = relyingPartyOf(policy.publicUrl);
  await admitChallenge(db, policy, originOf(ctx));
  let userId: number | null = null;
  let allow: PasskeyRow[] = [];
  if (mfaToken !== undefined) {
    userId = (await openPendingSignIn(db, mfaToken)).user_id;
    allow = await db('passkeys').where({ user_id: userId });
  }
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allow.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    userVerification: userId === null ? 'required' : 'preferred',
  });
  await storeChallenge(db, policy, { challenge: options.challenge, purpose: 'authentication', userId });
  return options;
}

const refused = () => new ApiError('unauthenticated', 'the passkey was not accepted');

/** A passkey that was accepted, by RFC 8176's names: `hwk` bound to its device, `swk` synced (backed up). */
interface PasskeyProof {
  key: 'hwk' | 'swk';
}

/** Whether the assertion holds for the stored passkey and its challenge (used up), with a counter that moved on. */
async function checkAssertion(
  db: Knex,
  rp: RelyingParty,
  { response, row, pending }: { response: { id: string }; row: PasskeyRow | undefined; pending: PendingRow | undefined },
): Promise<PasskeyProof | undefined> {
  if (!row || (pending && row.user_id !== pending.user_id)) return undefined;
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: (challenge) => takeChallenge(db, { challenge, purpose: 'authentication', userId: pending ? pending.user_id : null }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: row.credential_id, publicKey: isoBase64URL.toBuffer(row.public_key), counter: Number(row.counter), transports: transportsOf(row) },
      requireUserVerification: !pending,
    });
  } catch {
    return undefined;
  }
  if (!verification.verified) return undefined;
  const { newCounter, credentialDeviceType } = verification.authenticationInfo;
  // Atomic: of two assertions with the same counter, only one moves it on.
  const update = db('passkeys').where({ id: row.id });
  if (newCounter > 0) update.andWhere('counter', '<', newCounter);
  if ((await update.update({ counter: newCounter, last_used_at: Date.now() })) === 0) return undefined;
  return { key: credentialDeviceType === 'singleDevice' ? 'hwk' : 'swk' };
}

/**
 * Signs in with a passkey's assertion: alone, or as the second factor of a pending sign-in. The
 * attempt is reserved before the check, so that concurrent refused assertions cannot exceed the
 * limits; a refused one keeps its reservation and counts against the pending sign-in too.
 */
export async function passkeyLogin(
  deps: ServiceContext<SignInPolicy & BruteForcePolicy & MailPolicy>,
  { response, mfaToken }: { response: { id: string }; mfaToken?: string },
  { deviceId, confirms }: { deviceId?: string; confirms?: number } = {},
): Promise<SignedIn> {
  const { db, policy } = deps;
  const rp = relyingPartyOf(policy.publicUrl);
  const info = originOf(deps);
  const pending = mfaToken === undefined ? undefined : await openPendingSignIn(db, mfaToken);
  const row: PasskeyRow | undefined = await db('passkeys').where({ credential_id: response.id }).first();
  const ownerId = pending ? pending.user_id : row?.user_id;
  const owner = ownerId === undefined ? undefined : await currentUserById(db, ownerId).catch(() => undefined);
  const subject: EventSubject | undefined = owner ? { client: owner.client.name, user: owner.email } : undefined;
  const subjects = await attemptSubjects(db, { ip: info.ip, email: owner?.email, deviceId });
  const accepted = await signInAttempt(deps, { subjects, about: subject }, async () => {
    const proof = await checkAssertion(db, rp, { response, row, pending });
    if (proof) return { ok: true, value: proof };
    return {
      ok: false,
      error: refused(),
      refusal: { type: 'mfa.failure', event: 'login failed: passkey refused', email: owner?.email, about: subject, pending },
    };
  });
  const user = owner ?? (await currentUserById(db, row!.user_id));
  if (pending) return finishPendingSignIn(deps, { pending, user, proof: { secondFactor: 'passkey', key: accepted.key }, deviceId });
  return completeSignIn(deps, { user, method: 'passkey', proof: { key: accepted.key, confirms } });
}
