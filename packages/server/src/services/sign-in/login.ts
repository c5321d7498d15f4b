/** Password login, registration from an invite, and logout. */
import { ApiError, email as emailSchema, invalidInput, type CurrentUser } from '@tools-portal/core';
import { passwordProblem } from '@tools-portal/core/password-rules';
import type { Knex } from 'knex';
import { rolesOf } from '../apps/app-roles.js';
import { logEvent, logRepeated, type Audit } from '../log/audit.js';
import { addressSubject, banRemaining, emailSubject, type BruteForcePolicy } from './brute-force.js';
import { hasDevices, rememberDevice } from './login-devices.js';
import { queueNotice } from '../mail/notices.js';
import type { MailPolicy } from '../mail/outbox.js';
import { appIdsOfInvite, findInviteByToken, type InviteRow } from '../users/invites.js';
import type { PasswordCheck, PasswordHasher, PasswordPolicy } from './passwords.js';
import { useSecondFactorCode } from './second-factors.js';
import type { SecretBox } from '../support/secret-box.js';
import { originOf, withDb, type ServiceContext, type ActorContext } from '../support/context.js';
import { endSession, endSessionsOfUser } from './sessions.js';
import { attempt } from './regulator.js';
import { attemptSubjects, signInAttempt, signInCounters, signInRegulator } from './sign-in-attempts.js';
import {
  beginSignIn,
  completeSignIn,
  finishPendingSignIn,
  isPending,
  openPendingSignIn,
  type SignedIn,
  type SignInOutcome,
  type SignInPolicy,
  WrongSecondFactor,
} from './sign-in.js';
import { currentUserById, findUserByEmail, toCurrentUser, usersQuery, type UserRow } from '../users/users.js';

/** The context of a sign-in (anonymous: who signs in is what it finds out), with the password hasher. */
export type LoginContext = ServiceContext<SignInPolicy & BruteForcePolicy & MailPolicy & PasswordPolicy> & { hasher: PasswordHasher };

/** The browser a sign-in comes from: its known-device cookie, and the session that `Confirm: true` confirms. */
export interface SignInBrowser {
  deviceId?: string;
  confirms?: number;
}

export type { SignedIn } from './sign-in.js';

const WRONG_CREDENTIALS = 'wrong email or password';
const NOT_AN_EMAIL = '(not an email)';

export async function passwordLogin(
  deps: LoginContext,
  { email: emailInput, password }: { email: string; password: string },
  { deviceId, confirms }: SignInBrowser = {},
): Promise<SignInOutcome & { deviceId?: string }> {
  const { db, hasher, policy } = deps;
  const info = originOf(deps);
  const email = emailInput.trim().toLowerCase();
  // Whatever was typed into the email field may be a password; only an email is written to the log.
  const logged = emailSchema.safeParse(email).success ? email : NOT_AN_EMAIL;
  // A browser that signed in to this account before is counted as itself, not as the email: an
  // attacker's guesses cannot lock the owner out (docs/security.md).
  const subjects = await attemptSubjects(db, { ip: info.ip, email: logged, deviceId });
  const device = subjects[0]!.kind === 'device';
  const emailBanned = device ? (await banRemaining(db, [emailSubject(email)])) > 0 : false;
  // Admitted before hashing: concurrent guesses cannot all be checked (docs/security.md).
  const { row, check } = await signInAttempt(deps, { subjects, about: { user: logged } }, async () => {
    const found: (UserRow & { password_hash: string | null }) | undefined = await usersQuery(db)
      .where('users.email', email)
      .select('users.password_hash')
      .first();
    const checked: PasswordCheck = found?.password_hash ? await hasher.verify(found.password_hash, password) : await hasher.verifyNothing(password);
    if (found && checked.ok) return { ok: true, value: { row: found, check: checked } };
    const reason = !found ? 'unknown email' : found.password_hash ? 'wrong password' : 'no password set';
    return {
      ok: false,
      error: new ApiError('unauthenticated', WRONG_CREDENTIALS),
      refusal: {
        type: 'login.failure',
        event: `login failed: ${reason}`,
        email: found ? email : undefined,
        about: { client: found?.client_name, user: logged },
      },
    };
  });
  if (check.needsRehash) {
    await db('users')
      .where({ id: row.id })
      .update({ password_hash: await hasher.hash(password) });
  }
  const user = toCurrentUser(row);
  const outcome = await db.transaction(async (trx) => {
    const done = await beginSignIn(withDb(deps, trx), { user, method: emailBanned ? 'password-known-device' : 'password', confirms });
    // A browser this account has not signed in from before (its very first sign-in aside).
    if (!device && (await hasDevices(trx, user.id))) await queueNotice({ db: trx, policy, now: Date.now }, { kind: 'new-browser', email, origin: info });
    return done;
  });
  // A pending sign-in remembers the browser when its second factor finishes it (services/sign-in/sign-in.ts).
  if (isPending(outcome)) return outcome;
  return { ...outcome, deviceId: await rememberDevice(db, { userId: user.id, oldId: deviceId, ttlDays: policy.sessionTtlDays }) };
}

/**
 * The second factor of a pending sign-in: an authenticator code or a recovery code. Like a password
 * it is admitted (bans first) and reserved before the check, against the address and the email or
 * this known browser; a wrong code also counts toward the pending sign-in's 5.
 */
export async function secondFactorLogin(
  deps: LoginContext & { secrets: SecretBox },
  { mfaToken, code }: { mfaToken: string; code: string },
  { deviceId }: SignInBrowser = {},
): Promise<SignedIn> {
  const { db, secrets } = deps;
  const info = originOf(deps);
  const pending = await openPendingSignIn(db, mfaToken);
  const user = await currentUserById(db, pending.user_id);
  const about = { client: user.client.name, user: user.email };
  const subjects = await attemptSubjects(db, { ip: info.ip, email: user.email, deviceId });
  // The code is used up in the transaction that takes the pending sign-in: of codes racing for
  // it, the losers' are left unused (services/sign-in/sign-in.ts).
  const useCode = async (trx: Knex) => {
    const factor = await useSecondFactorCode(trx, secrets, { userId: user.id, code, now: Date.now() });
    if (factor === 'recovery') await logEvent(trx, { actor: user, ...info }, { type: 'recovery.use', event: 'used a recovery code' });
    return factor;
  };
  return signInAttempt(deps, { subjects, about }, async () => {
    try {
      return { ok: true, value: await finishPendingSignIn(deps, { pending, user, proof: { secondFactor: useCode }, deviceId }) };
    } catch (error) {
      if (!(error instanceof WrongSecondFactor)) throw error;
      return {
        ok: false,
        error: new ApiError('unauthenticated', 'wrong code'),
        refusal: { type: 'mfa.failure', event: 'login failed: wrong second-factor code', email: user.email, about, pending },
      };
    }
  });
}

/** Changes the caller's password (SPEC rules) and ends their other sessions. */
export async function changePassword(
  deps: LoginContext & { actor: CurrentUser },
  { sessionId, current, next }: { sessionId: number | undefined; current: string; next: string },
): Promise<void> {
  const { db, hasher, policy, actor: user } = deps;
  const audit: Audit & { actor: CurrentUser } = { actor: user, ...originOf(deps) };
  const subjects = [emailSubject(user.email), addressSubject(audit.ip)];
  // Not a sign-in: no blocked row and no notice, but the same limits and bans as a password.
  await attempt(signInRegulator(deps), signInCounters(policy, subjects), async () => {
    const problem = await passwordProblem(next, { email: user.email, portalName: policy.branding.portalName });
    if (problem) throw invalidInput('NewPassword', problem);
    const row = await db('users').where({ id: user.id }).first('password_hash');
    const ok = row?.password_hash ? (await hasher.verify(row.password_hash, current)).ok : (await hasher.verifyNothing(current)).ok;
    if (ok) return { ok: true, value: undefined };
    return {
      ok: false,
      error: new ApiError('unauthenticated', 'the current password is wrong'),
      refuse: (trx) => logRepeated(trx, audit, { type: 'login.failure', event: 'password change refused: wrong current password' }),
    };
  });
  const passwordHash = await hasher.hash(next);
  await db.transaction(async (trx) => {
    await trx('users').where({ id: user.id }).update({ password_hash: passwordHash });
    const ended = await endSessionsOfUser(trx, user.id, sessionId);
    await logEvent(trx, audit, { type: 'password.change', event: `changed password (${ended} other sessions ended)` });
    await queueNotice(
      { db: trx, policy, now: Date.now },
      { kind: 'password-changed', email: user.email, origin: { ip: audit.ip, userAgent: audit.userAgent } },
    );
  });
}

/** Checks that an invite can still be used, and answers it. */
export async function openInvite(db: Knex, token: string): Promise<InviteRow> {
  const invite = await findInviteByToken(db, token);
  if (!invite) throw new ApiError('not_found', 'this invitation does not exist');
  if (invite.used_at !== null) throw new ApiError('conflict', 'this invitation has already been used');
  if (Number(invite.expires_at) <= Date.now()) throw invalidInput('Token', 'this invitation has expired');
  return invite;
}

/**
 * Creates the invited user in the invite's client with the invite's apps and consumes the invite,
 * and signs the user in, in one transaction: of several concurrent attempts exactly one wins, the
 * rest answer conflict.
 */
export async function registerFromInvite(
  ctx: ServiceContext<SignInPolicy>,
  {
    invite,
    credentials,
    method,
  }: {
    invite: InviteRow;
    credentials: { passwordHash?: string; googleSub?: string; googleVerifiedEmail?: string };
    method: 'invite-password' | 'invite-google';
  },
): Promise<SignedIn> {
  return await ctx.db.transaction(async (trx) => {
    const consumed = await trx('invites').where({ id: invite.id }).whereNull('used_at').update({ used_at: Date.now() });
    if (consumed === 0) throw new ApiError('conflict', 'this invitation has already been used');
    if (await findUserByEmail(trx, invite.email)) throw new ApiError('conflict', `a user with email ${invite.email} already exists`);
    const [row] = await trx('users')
      .insert({
        email: invite.email,
        client_id: invite.client_id,
        password_hash: credentials.passwordHash ?? null,
        google_sub: credentials.googleSub ?? null,
        created_at: Date.now(),
        // The mailbox is proven by an invitation that went out by mail (a copied link proves
        // nothing), or by Google vouching for this very email (docs/oidc.md, `email_verified`).
        email_verified_at: invite.mailed || credentials.googleVerifiedEmail === invite.email ? Date.now() : null,
        // The language the admin invited them in is theirs until they choose on Account.
        language: invite.language ?? null,
      })
      .returning('id');
    const appIds = await appIdsOfInvite(trx, invite.id);
    if (appIds.length > 0) {
      // Each grant carries the app's default role (none when the app has no roles).
      const apps: { id: number; roles: string }[] = await trx('apps').whereIn('id', appIds).select('id', 'roles');
      await trx('user_apps').insert(
        apps.map((app) => ({ user_id: row.id, app_id: app.id, role: rolesOf(app.roles)[0] ?? null, granted_at: ctx.now(), granted_by: 'invitation' })),
      );
    }
    return completeSignIn(withDb(ctx, trx), { user: await currentUserById(trx, row.id), method });
  });
}

/**
 * Registering with a password signs in with it: the browser becomes a known device of the account
 * (services/sign-in/login-devices.ts), so a first sign-in from another browser sends the new-browser notice.
 */
export async function registerWithPassword(
  deps: LoginContext,
  { token, password }: { token: string; password: string },
  { deviceId }: SignInBrowser = {},
): Promise<SignedIn & { deviceId: string }> {
  const { db, hasher, policy } = deps;
  const invite = await openInvite(db, token);
  const problem = await passwordProblem(password, { email: invite.email, portalName: policy.branding.portalName });
  if (problem) throw invalidInput('Password', problem);
  const passwordHash = await hasher.hash(password);
  const signedIn = await registerFromInvite(deps, { invite, credentials: { passwordHash }, method: 'invite-password' });
  return { ...signedIn, deviceId: await rememberDevice(db, { userId: signedIn.user.id, oldId: deviceId, ttlDays: policy.sessionTtlDays }) };
}

/** The event-log entry of a logout: the portal's own, or an app's through OpenID Connect. */
interface LogoutEvent {
  type: 'session.logout' | 'oidc.logout';
  text: string;
}

const PORTAL_LOGOUT: LogoutEvent = { type: 'session.logout', text: 'logout' };

/** Ends the session and writes its entry in one transaction: both or neither (docs/event-log.md). */
export async function logout(ctx: ActorContext, { sessionId, event = PORTAL_LOGOUT }: { sessionId: number | undefined; event?: LogoutEvent }): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    if (sessionId !== undefined) await endSession(trx, sessionId);
    await logEvent(trx, ctx, { type: event.type, event: event.text });
  });
}
