/**
 * Password reset by mail (docs/email.md): a link with a token of 256 random bits, stored as its
 * SHA-256 hash, valid for 60 minutes and once; a newer link voids the older ones. Asking for one
 * answers the same, after the same work, whether or not the email belongs to a user.
 */
import { accessTokensLink, ApiError, invalidInput, passwordResetLink, randomToken, type CurrentUser } from '@tools-portal/core';
import { passwordProblem } from '@tools-portal/core/password-rules';
import type { Knex } from 'knex';
import { passwordReset } from '../../mail/templates.js';
import { wordsForUser } from '../mail/recipients.js';
import { activeKeysOfUser } from '../users/api-keys.js';
import { emailSubject } from './brute-force.js';
import { logEvent, logRepeated, thisMinute, type Audit } from '../log/audit.js';
import { queueNotice } from '../mail/notices.js';
import { enqueueMail, type MailPolicy } from '../mail/outbox.js';
import type { PasswordHasher, PasswordPolicy } from './passwords.js';
import { attempt, forget, takeSlot, type Regulation } from './regulator.js';
import { sha256 } from '../support/secrets.js';
import { withDb, type Origin, type ServiceContext } from '../support/context.js';
import { beginSignIn, type SignInOutcome, type SignInPolicy } from './sign-in.js';
import { getUser, markEmailVerified, toCurrentUser, usersQuery, type UserRow } from '../users/users.js';

const RESET_TTL_MINUTES = 60;
const MINUTE_MS = 60 * 1000;
/**
 * Reset requests (docs/email.md): per address within the window, past it 429; reset mails per
 * email within any `emailWindowMs`, past it silence (204, nothing sent), so that a stranger
 * asking for someone's email neither gets them a 429 nor holds their mail back for longer.
 */
const RESET_LIMITS = { perAddress: 20, windowMs: 60 * MINUTE_MS, perEmail: 3, emailWindowMs: 15 * MINUTE_MS };

/** Every reset request counts (services/sign-in/regulator.ts); past the limit 429 until the window ends. */
const RESET_REQUESTS: Regulation = {
  counts: 'every',
  tooMany: (retryAfter) => new ApiError('too_many_requests', `too many requests; try again in ${Math.ceil(retryAfter / 60)} minutes`, { retryAfter }),
};

interface ResetRow {
  id: number;
  user_id: number;
  email: string;
  expires_at: number;
  used_at: number | null;
  /** Whether the link went out by mail: using it proves the mailbox (an admin's shown link does not). */
  mailed: boolean | number;
}

/** Voids the user's open links and makes a new one in the caller's transaction; answers its token. */
async function newResetToken(trx: Knex, userId: number, now: number): Promise<string> {
  const token = randomToken(32);
  await trx('password_resets').where({ user_id: userId }).whereNull('used_at').delete();
  await trx('password_resets').insert({ user_id: userId, token_hash: sha256(token), created_at: now, expires_at: now + RESET_TTL_MINUTES * MINUTE_MS });
  return token;
}

/** Remembers that the link of `token` went out by mail (queued in the same transaction). */
async function markMailed(trx: Knex, token: string): Promise<void> {
  await trx('password_resets')
    .where({ token_hash: sha256(token) })
    .update({ mailed: true });
}

/**
 * `POST /forgotpassword`: counts the request per address (429 past the limit), then takes one of
 * the email's mail slots (none free: logged, nothing sent), then, if the email belongs to a user,
 * makes a link and queues the mail. The caller answers 204 either way.
 */
export async function requestPasswordReset(ctx: ServiceContext<MailPolicy>, emailInput: string): Promise<void> {
  const email = emailInput.trim().toLowerCase();
  const perAddress = { kind: 'reset-address', subject: ctx.ip.slice(0, 254), limit: RESET_LIMITS.perAddress, windowMs: RESET_LIMITS.windowMs };
  await attempt({ db: ctx.db, ...RESET_REQUESTS }, [perAddress], async () => ({ ok: true, value: await sendResetLink(ctx, email) }));
}

/** The email's mail slot, then the link and its mail when the email belongs to a user. */
async function sendResetLink(ctx: ServiceContext<MailPolicy>, email: string): Promise<void> {
  const { db, policy } = ctx;
  const info: Origin = { ip: ctx.ip, userAgent: ctx.userAgent };
  // Anonymous, whoever asks.
  const audit: Audit = { actor: null, ...info };
  // Known and unknown emails alike, so that the work and the answer are the same.
  if (!(await takeSlot(db, { kind: 'reset-email', subject: email, limit: RESET_LIMITS.perEmail, windowMs: RESET_LIMITS.emailWindowMs }))) {
    const event = `password reset not sent: ${RESET_LIMITS.perEmail} mails to this email in ${RESET_LIMITS.emailWindowMs / MINUTE_MS} minutes`;
    await logRepeated(db, audit, { type: 'password.reset_request', event: event, group: thisMinute(), subject: { user: email } });
    return;
  }
  await db.transaction(async (trx) => {
    const now = ctx.now();
    const user: UserRow | undefined = await usersQuery(trx).where('users.email', email).first();
    if (!user) {
      await logEvent(trx, audit, { type: 'password.reset_request', event: 'password reset asked for an unknown email', subject: { user: email } });
      return;
    }
    const token = await newResetToken(trx, user.id, now);
    const link = passwordResetLink(policy.publicUrl, token);
    const mailContext = { db: trx, policy, now: Date.now };
    const mail = passwordReset(await wordsForUser(mailContext, email), { email, link, minutes: RESET_TTL_MINUTES, at: now, origin: info, byAdmin: false });
    const sent = await enqueueMail(mailContext, { kind: 'password-reset', to: email, ...mail });
    if (sent) await markMailed(trx, token);
    await logEvent(trx, audit, {
      type: 'password.reset_request',
      event: sent ? 'password reset link sent by mail' : 'password reset asked (mail is not configured)',
      subject: {
        client: user.client_name,
        user: email,
      },
    });
  });
}

/** `POST /user/{id}/passwordreset` (admins): a link for the user, mailed too when mail is configured. */
export async function adminPasswordReset(ctx: ServiceContext<MailPolicy> & { actor: CurrentUser }, userId: number): Promise<{ link: string; sent: boolean }> {
  const { policy } = ctx;
  const audit = ctx;
  return ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const now = ctx.now();
    const token = await newResetToken(trx, user.id, now);
    const link = passwordResetLink(policy.publicUrl, token);
    const mailContext = { db: trx, policy, now: Date.now };
    const words = await wordsForUser(mailContext, user.email);
    const mail = passwordReset(words, { email: user.email, link, minutes: RESET_TTL_MINUTES, at: now, origin: audit, byAdmin: true });
    const sent = await enqueueMail(mailContext, { kind: 'password-reset', to: user.email, ...mail });
    if (sent) await markMailed(trx, token);
    await logEvent(trx, audit, {
      type: 'password.reset_request',
      event: `made a password reset link for ${user.email}${sent ? ' (sent by mail)' : ''}`,
      subject: { client: user.client.name, user: user.email },
    });
    return { link, sent };
  });
}

/** The user a reset token stands for while it can be used; else a 400 naming `Token`. */
async function openReset(db: Knex, token: string, now = Date.now()): Promise<ResetRow> {
  const row: ResetRow | undefined = await db('password_resets')
    .join('users', 'users.id', 'password_resets.user_id')
    .where({ 'password_resets.token_hash': sha256(token) })
    .first('password_resets.id', 'password_resets.user_id', 'users.email', 'password_resets.expires_at', 'password_resets.used_at', 'password_resets.mailed');
  if (!row) throw invalidInput('Token', 'this password reset link is not valid (a newer one may have replaced it)');
  if (row.used_at !== null) throw invalidInput('Token', 'this password reset link has already been used');
  if (Number(row.expires_at) <= now) throw invalidInput('Token', 'this password reset link has expired');
  return row;
}

/**
 * `POST /resetpassword`: checks the link and the new password (every rule, before hashing), then
 * uses the link and signs in through the one sign-in pipeline.
 */
export async function resetWithToken(
  ctx: ServiceContext<MailPolicy & SignInPolicy & PasswordPolicy> & { hasher: PasswordHasher },
  { token, password }: { token: string; password: string },
): Promise<SignInOutcome> {
  const reset = await openReset(ctx.db, token);
  const problem = await passwordProblem(password, { email: reset.email, portalName: ctx.policy.branding.portalName });
  if (problem) throw invalidInput('Password', problem);
  return useReset(ctx, { reset, passwordHash: await ctx.hasher.hash(password) });
}

/**
 * Uses a reset link: sets the password, ends every session of the user, voids the user's other
 * links, clears the email's failed-login ban and counters, queues the notice (naming the API keys,
 * which a reset leaves working) and signs in (the new
 * session after the old ones are gone), in one transaction. Of concurrent uses of one link exactly
 * one wins. A reset link replaces the password only: a user with a second factor still has to give
 * it (a pending sign-in), or a stolen mailbox would be enough to take the account.
 */
async function useReset(
  ctx: ServiceContext<MailPolicy & SignInPolicy>,
  { reset, passwordHash }: { reset: ResetRow; passwordHash: string },
): Promise<SignInOutcome> {
  const { policy } = ctx;
  const info: Origin = { ip: ctx.ip, userAgent: ctx.userAgent };
  return ctx.db.transaction(async (trx) => {
    const now = ctx.now();
    const used = await trx('password_resets').where({ id: reset.id }).whereNull('used_at').andWhere('expires_at', '>', now).update({ used_at: now });
    if (used === 0) throw invalidInput('Token', 'this password reset link has already been used');
    const row: UserRow | undefined = await usersQuery(trx).where('users.id', reset.user_id).first();
    // The user was deleted meanwhile (which deletes their links too).
    if (!row) throw invalidInput('Token', 'this password reset link is not valid');
    await trx('users').where({ id: row.id }).update({ password_hash: passwordHash });
    // A link that went out by mail proves the mailbox (docs/oidc.md, `email_verified`).
    if (reset.mailed) await markEmailVerified(trx, { userId: row.id, email: row.email, now });
    await trx('sessions').where({ user_id: row.id }).delete();
    await trx('password_resets').where({ user_id: row.id }).whereNull('used_at').delete();
    await forget(trx, [emailSubject(row.email)]);
    // The notice names the keys that survive the reset (docs/email.md).
    const apiKeys = { keys: await activeKeysOfUser(trx, row.id, now), link: accessTokensLink(policy.publicUrl) };
    await queueNotice({ db: trx, policy, now: Date.now }, { kind: 'password-reset', email: row.email, origin: info, apiKeys });
    const user = toCurrentUser(row);
    await logEvent(trx, { actor: user, ...info }, { type: 'password.reset', event: 'password reset with a link from mail; every session ended' });
    return beginSignIn(withDb(ctx, trx), { user, method: 'password-reset' });
  });
}
