/**
 * Google sign-in (docs/google-sign-in.md). Starting stores the sign-in's secrets and requested redirect; finishing
 * redeems the callback for verified claims and decides what the Google identity may do: sign in
 * as the user it is linked to or whose email it has, register from an invite, or, for staff of
 * STAFF_EMAIL_DOMAIN, become an admin. Anything else is refused. Every outcome is one event.
 */
import { ApiError, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import { translateDatabaseError } from '../../db/errors.js';
import { newChecks, type GoogleRelyingParty } from '../../google-relying-party.js';
import { logEvent, logRepeated, type Audit, type EventSubject } from '../log/audit.js';
import { openInvite, registerFromInvite } from './login.js';
import { savePendingLogin, takePendingLogin, type PendingLogin } from './google-pending-logins.js';
import { redirectAfterSignIn, redirectToKeep } from '../access/redirects.js';
import { completeSignIn, type SignedIn, type SignInMethod, type SignInPolicy } from './sign-in.js';
import { createStaffAdmin } from '../users/staff-admins.js';
import { markEmailVerified, toCurrentUser, usersQuery, type UserRow } from '../users/users.js';
import type { Origin } from '../support/context.js';

/** The claims of a verified ID token that matter here. */
interface GoogleIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  /** Google's `hd` claim: the Google Workspace domain of the account, if any. */
  hostedDomain: string | undefined;
}

interface GoogleSignInPolicy extends SignInPolicy {
  staffEmailDomain: string | undefined;
  publicOrigin: string;
  /** Most sign-ins under way at once (GOOGLE_PENDING_MAX). */
  googlePendingMax?: number;
}

export interface StartRequest {
  redirect: string | undefined;
  inviteToken: string | undefined;
  /** The signed-in session to confirm (Confirm it's you): Google is asked for a fresh sign-in. */
  confirms?: number;
}

const MAX_INVITE_TOKEN = 200;

/** What a Google sign-in works with: the database, Google as the relying party sees it, and the rules. */
export interface GoogleContext {
  db: Knex;
  client: GoogleRelyingParty;
  policy: GoogleSignInPolicy;
}

/** Begins a sign-in; answers the browser binding for the cookie and where to send the browser. */
export async function startGoogleSignIn({ db, client, policy }: GoogleContext, request: StartRequest): Promise<{ binding: string; authorizationUrl: URL }> {
  const checks = newChecks();
  const inviteToken = request.inviteToken && request.inviteToken.length <= MAX_INVITE_TOKEN ? request.inviteToken : null;
  const redirect = await redirectToKeep(db, policy.publicOrigin, request.redirect);
  const confirms = request.confirms ?? null;
  const authorizationUrl = await client.authorizationUrl(checks, confirms !== null);
  const binding = await savePendingLogin(db, { ...checks, inviteToken: confirms === null ? inviteToken : null, redirect, confirms }, policy.googlePendingMax);
  return { binding, authorizationUrl };
}

/**
 * Finishes the sign-in this browser started. Any failure is logged once, here, and rethrown
 * as an ApiError.
 */
export async function finishGoogleSignIn(
  { db, client, policy, origin: info }: GoogleContext & { origin: Origin },
  { binding, callbackUrl }: { binding: string | undefined; callbackUrl: URL },
): Promise<SignedIn & { redirect: string }> {
  const audit: Audit = { actor: null, ...info };
  let subject: EventSubject = {};
  try {
    const pending = await takePendingLogin(db, binding);
    const claims = await client.verifiedClaims(callbackUrl, pending, pending.confirms !== null);
    const identity = toIdentity(claims);
    subject = { user: identity.email || `google:${identity.sub}` };
    const signedIn = await decide({ db, policy, origin: info }, { identity, pending, about: (found) => (subject = found) });
    return { ...signedIn, redirect: await redirectAfterSignIn(db, { portalOrigin: policy.publicOrigin, target: pending.redirect, user: signedIn.user }) };
  } catch (error) {
    const known = translateDatabaseError(error);
    const event = `Google sign-in refused: ${known ? known.message : 'internal error'}`;
    // Before Google named anyone, anybody can repeat this at will: one row a minute per address.
    if (subject.user === undefined) await logRepeated(db, audit, { type: 'google.failure', event: event });
    else await logEvent(db, audit, { type: 'google.failure', event: event, subject: subject });
    throw known ?? error;
  }
}

function toIdentity(claims: Record<string, unknown>): GoogleIdentity {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    sub: text(claims.sub),
    email: text(claims.email).trim().toLowerCase(),
    emailVerified: claims.email_verified === true,
    hostedDomain: typeof claims.hd === 'string' ? claims.hd.toLowerCase() : undefined,
  };
}

const refused = (reason: string) => new ApiError('forbidden', reason);

async function decide(
  { db, policy, origin: info }: Omit<GoogleContext, 'client'> & { origin: Origin },
  { identity, pending, about }: { identity: GoogleIdentity; pending: Pick<PendingLogin, 'inviteToken' | 'confirms'>; about: (subject: EventSubject) => void },
): Promise<SignedIn> {
  const { inviteToken, confirms } = pending;
  const { email, sub } = identity;
  const audit: Audit = { actor: null, ...info };
  // A confirmation updates the signed-in session, and only its user's Google account can (services/sign-in/sign-in.ts).
  const signIn = (user: CurrentUser, method: SignInMethod) =>
    completeSignIn({ db, policy, now: Date.now, actor: null, ...info }, { user, method, proof: { confirms: confirms ?? undefined } });

  if (!email || !identity.emailVerified) throw refused('the Google account has no verified email address');

  const linked: UserRow | undefined = await usersQuery(db).where('users.google_sub', sub).first();
  if (linked) {
    // Google's verified claim proves the mailbox only while it names the user's own email.
    if (linked.email === email) await markEmailVerified(db, { userId: linked.id, email });
    return signIn(toCurrentUser(linked), 'google');
  }

  const known: (UserRow & { google_sub: string | null }) | undefined = await usersQuery(db).where('users.email', email).select('users.google_sub').first();
  if (known) {
    about({ client: known.client_name, user: email });
    // Linking happens once: a user already linked to another Google account stays with it.
    const linkedNow = known.google_sub === null ? await db('users').where({ id: known.id }).whereNull('google_sub').update({ google_sub: sub }) : 0;
    if (linkedNow === 0) throw refused('the user is linked to another Google account');
    await markEmailVerified(db, { userId: known.id, email });
    return signIn(toCurrentUser(known), 'google-linked');
  }

  if (confirms !== null) throw refused("the Google account is not the signed-in user's");

  if (inviteToken) {
    try {
      return await registerFromInvite(
        { db, policy, now: Date.now, actor: null, ...info },
        { invite: await openInvite(db, inviteToken), credentials: { googleSub: sub, googleVerifiedEmail: email }, method: 'invite-google' },
      );
    } catch (error) {
      if (error instanceof ApiError) throw refused(`the invitation cannot be used: ${error.message}`);
      throw error;
    }
  }

  const staff = policy.staffEmailDomain;
  if (staff && email.endsWith(`@${staff}`)) {
    if (identity.hostedDomain !== staff) throw refused(`the account is not managed by the ${staff} Google Workspace (hd claim)`);
    return createStaffAdmin({ db, policy, now: Date.now, ...audit }, { email, googleSub: sub });
  }

  throw refused('no user, invitation or staff domain matches this Google account');
}
