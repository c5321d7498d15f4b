/**
 * The shapes the REST API answers with (docs/product.md §3), as types: each is inferred from its
 * zod schema in answers.ts, so that a shape is written once. Timestamps are ISO 8601 strings.
 */
import type { z } from 'zod';
import type {
  accessRequestAnswer,
  accessRequestStatuses,
  accessTokenAnswer,
  appAnswer,
  appAccessAnswer,
  appSummaryAnswer,
  teamAnswer,
  grantableTeamAnswer,
  grantableUserAnswer,
  teamAppAnswer,
  teamMemberAnswer,
  appUserAnswer,
  clientAnswer,
  currentUserAnswer,
  grantedAppAnswer,
  healthAnswer,
  keysRevokedAnswer,
  userSecurityAnswer,
  listedAppAnswer,
  logCountAnswer,
  logEntryAnswer,
  loginAnswer,
  loginOptionsAnswer,
  mailEntryAnswer,
  mailStatuses,
  meAnswer,
  mfaChallengeAnswer,
  mfaMethods,
  passkeyAnswer,
  passwordAnswer,
  passwordResetLinkAnswer,
  recoveryCodesAnswer,
  registrationTokenAnswer,
  registrationTokenStatusAnswer,
  requestableAppAnswer,
  totpEnrolmentAnswer,
  userAnswer,
  userSessionAnswer,
  webAuthnOptionsAnswer,
} from './answers.js';

/** An app as lists show it, without its owners. */
export type App = z.infer<typeof appSummaryAnswer>;
/** @alias App, the name the server's services use for it */
export type AppSummary = App;
/** An app with its owners (`GET /app/{id}`, `POST` and `PUT /app`). */
export type ManagedApp = z.infer<typeof appAnswer>;
export type Team = z.infer<typeof teamAnswer>;
/** A member of a team; `expires` only when the membership expires. */
export type TeamMember = z.infer<typeof teamMemberAnswer>;
/** An app granted to a team, with the grant's role and expiry. */
export type TeamApp = z.infer<typeof teamAppAnswer>;
/** A user an app's owners may name by exact email: id and email only. */
export type GrantableUser = z.infer<typeof grantableUserAnswer>;
/** A team an app's owners may grant it to: id and name only. */
export type GrantableTeam = z.infer<typeof grantableTeamAnswer>;
/** A user who may use an app, with their roles and the grants that reach them (`GET /app/{id}/access`). */
export type AppAccess = z.infer<typeof appAccessAnswer>;
/** An app in the caller's own list (`GET /app/`, `GET /app`). */
export type ListedApp = z.infer<typeof listedAppAnswer>;
/** An app granted to a user (`GET /user/{id}/app`); `expires` only when the grant expires. */
export type GrantedApp = z.infer<typeof grantedAppAnswer>;
/** A user of an app (`GET /app/{id}/user`); `expires` only when the grant expires. */
export type AppUser = z.infer<typeof appUserAnswer>;
/** `GET /user/me/requestable`: what a user may ask for, never its URL. */
export type RequestableApp = z.infer<typeof requestableAppAnswer>;
export type AccessRequestStatus = (typeof accessRequestStatuses)[number];
/** A user's request for an app; decided requests also carry who decided, when, and why. */
export type AccessRequest = z.infer<typeof accessRequestAnswer>;
export type ClientRef = z.infer<typeof clientAnswer>;
export type Client = ClientRef;
export type User = z.infer<typeof userAnswer>;
/** The current user, with the admin flag the server derived. */
export type CurrentUser = z.infer<typeof currentUserAnswer>;
/** `GET /user/me`: the caller, whether they have a second factor, and whether this session is restricted to enrolling one. */
export type Me = z.infer<typeof meAnswer>;
/** An invitation. `token` is the registration secret that goes into the link. */
export type RegistrationToken = z.infer<typeof registrationTokenAnswer>;
/** An API key as lists show it: `token` is masked (`apikey-AbCd…wxyz`); the full key is shown once. */
export type AccessToken = z.infer<typeof accessTokenAnswer>;
export type LogEntry = z.infer<typeof logEntryAnswer>;
/** `GET /log/count`. */
export type LogCount = z.infer<typeof logCountAnswer>;
/** `DELETE /user/{id}/accesstoken`: how many keys were deleted. */
export type KeysRevoked = z.infer<typeof keysRevokedAnswer>;
export type UserSecurity = z.infer<typeof userSecurityAnswer>;
/** Answer of `POST /validatepassword` and `POST /register/`. */
export type LoginAnswer = z.infer<typeof loginAnswer>;
/** A second factor a pending sign-in may be finished with. */
export type MfaMethod = (typeof mfaMethods)[number];
/** `POST /validatepassword` for a user with a second factor: no session yet, a pending sign-in. */
export type MfaChallenge = z.infer<typeof mfaChallengeAnswer>;
/** What a correct password gets: a session, or a second factor to give first. */
export type PasswordAnswer = z.infer<typeof passwordAnswer>;

export function isMfaChallenge(answer: PasswordAnswer): answer is MfaChallenge {
  return typeof (answer as Partial<MfaChallenge>).mfa === 'object' && (answer as MfaChallenge).mfa !== null;
}

/** `POST /user/me/totp`: a pending authenticator-app enrolment. */
export type TotpEnrolment = z.infer<typeof totpEnrolmentAnswer>;
/** `POST /user/me/totp/confirm`: the recovery codes, shown this once. */
export type RecoveryCodes = z.infer<typeof recoveryCodesAnswer>;
/** One of the caller's passkeys. */
export type Passkey = z.infer<typeof passkeyAnswer>;
/** WebAuthn options as the server's library makes them, for the browser's library. */
export type WebAuthnOptions = z.infer<typeof webAuthnOptionsAnswer>;
/** One of the caller's sessions (`GET /user/me/session`). */
export type UserSession = z.infer<typeof userSessionAnswer>;
export type Health = z.infer<typeof healthAnswer>;
/** `GET /loginoptions`: which ways to log in the login screen should offer. */
export type LoginOptions = z.infer<typeof loginOptionsAnswer>;
/** `POST /registrationtoken/status`: open, used, expired or unknown. */
export type RegistrationTokenStatus = z.infer<typeof registrationTokenStatusAnswer>['status'];
export type MailStatus = (typeof mailStatuses)[number];
/** A mail of the outbox as admins see it (`GET /mail`): never its body. */
export type MailEntry = z.infer<typeof mailEntryAnswer>;
/** `POST /user/{id}/passwordreset`: the link, and whether it was mailed to the user too. */
export type PasswordResetLink = z.infer<typeof passwordResetLinkAnswer>;
