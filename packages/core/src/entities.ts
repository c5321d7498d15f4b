/** The shapes the REST API answers with (docs/product.md §3). Timestamps are ISO 8601 strings. */

export interface App {
  id: number;
  name: string;
  url: string;
  description: string;
  doclink: string;
  /** Free text that groups apps in the app list; may be empty. */
  category: string;
  /** Whether users may ask for access to it (`POST /accessrequest/`). */
  requestable: boolean;
  /** The path of its icon on the portal, with a version (`/api/auth/v1/app/7/icon?v=3`), or null. */
  icon: string | null;
}

/** An app in the caller's own list (`GET /app/`, `GET /app`). */
export interface ListedApp extends App {
  favourite: boolean;
}

/** An app granted to a user (`GET /user/{id}/app`); `expires` only when the grant expires. */
export interface GrantedApp extends App {
  expires?: string;
}

/** A user of an app (`GET /app/{id}/user`); `expires` only when the grant expires. */
export interface AppUser extends User {
  expires?: string;
}

/** `GET /user/me/requestable`: what a user may ask for, never its URL. */
export interface RequestableApp {
  id: number;
  name: string;
  description: string;
  category: string;
}

export type AccessRequestStatus = 'open' | 'approved' | 'denied';

/** A user's request for an app; decided requests also carry who decided, when, and why. */
export interface AccessRequest {
  id: number;
  app: { id: number; name: string };
  user: { id: number; email: string };
  reason: string;
  status: AccessRequestStatus;
  createdTimestamp: string;
  decidedTimestamp?: string;
  decidedBy?: string;
  /** The reason an admin gave for a denial. */
  decision?: string;
}

export interface ClientRef {
  id: number;
  name: string;
}

export type Client = ClientRef;

export interface User {
  id: number;
  email: string;
  name: string;
  client: ClientRef;
}

/** `GET /user/me`: the current user, with the admin flag the server derived. */
export interface CurrentUser extends User {
  admin: boolean;
  /** The user has at least one second factor (authenticator app or passkey). */
  mfa?: boolean;
  /** The user has an authenticator app set up (confirmed with its first code). */
  totp?: boolean;
  /** This session may only enrol a second factor (MFA_REQUIRED, docs/security.md). */
  mfaEnrollmentRequired?: boolean;
}

/** `GET /user/me`: the caller, whether they have a second factor (and an authenticator app), and whether this session is restricted to enrolling one. */
export interface Me extends CurrentUser {
  mfa: boolean;
  totp: boolean;
  mfaEnrollmentRequired: boolean;
}

/** An invitation. `token` is the registration secret that goes into the link. */
export interface RegistrationToken {
  id: number;
  email: string;
  token: string;
  sent_timestamp: string;
  expires_timestamp: string;
  client: ClientRef;
  apps: number[];
  /** The registration link, built by the server from PUBLIC_URL: `{PUBLIC_URL}/{app}/register?token=…`. */
  link: string;
}

/** An API key as lists show it: `token` is masked (`apikey-AbCd…wxyz`); the full key is shown once. */
export interface AccessToken {
  id: number;
  token: string;
  /** What the owner called it, or null. */
  name: string | null;
  createdTimestamp: string;
  /** When it stops working, or null for never; an expired key answers 401 (it stays listed until deleted). */
  expiresTimestamp: string | null;
  lastUsedTimestamp: string | null;
  user: { id: number; email: string };
}

export interface LogEntry {
  id: number;
  timestamp: string;
  /** A type of the catalogue in events.ts, e.g. `login.success` (older entries may hold another). */
  type: string;
  /** The client and user the event is about. */
  client: string;
  user: string;
  /** The email of who did it; empty when anonymous. */
  actor: string;
  event: string;
  ip: string;
  userAgent: string;
  /** How many times it happened: repeated anonymous denials within a minute share one entry. */
  count: number;
}

/** Answer of `POST /validatepassword` and `POST /register/`. */
export interface LoginAnswer {
  accesstoken: string;
  /** Where the browser should go next: the requested target if it is safe, else the default. */
  redirect: string;
}

/** A second factor a pending sign-in may be finished with. */
export type MfaMethod = 'totp' | 'passkey' | 'recovery';

/** `POST /validatepassword` for a user with a second factor: no session yet, a pending sign-in. */
export interface MfaChallenge {
  mfa: {
    /** The pending sign-in: 5 minutes, single use. */
    token: string;
    methods: MfaMethod[];
  };
}

/** What a correct password gets: a session, or a second factor to give first. */
export type PasswordAnswer = LoginAnswer | MfaChallenge;

export function isMfaChallenge(answer: PasswordAnswer): answer is MfaChallenge {
  return typeof (answer as Partial<MfaChallenge>).mfa === 'object' && (answer as MfaChallenge).mfa !== null;
}

/** `POST /user/me/totp`: a pending authenticator-app enrolment. */
export interface TotpEnrolment {
  /** Base32, 160 bits. */
  secret: string;
  /** `otpauth://totp/…`, for the QR code. */
  uri: string;
}

/** `POST /user/me/totp/confirm`: the recovery codes, shown this once. */
export interface RecoveryCodes {
  recoveryCodes: string[];
}

/** One of the caller's passkeys. */
export interface Passkey {
  id: number;
  name: string;
  createdTimestamp: string;
}

/** One of the caller's sessions (`GET /user/me/session`). */
export interface UserSession {
  id: number;
  /** The session this call was made with. */
  current: boolean;
  createdTimestamp: string;
  lastUsedTimestamp: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface Health {
  status: 'ok' | 'unavailable';
}

/** `GET /loginoptions`: which ways to log in the login screen should offer. */
export interface LoginOptions {
  google: boolean;
  /** Whether "Forgot password?" works: mail is configured. */
  passwordReset: boolean;
}

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** A mail of the outbox as admins see it (`GET /mail`): never its body. */
export interface MailEntry {
  id: number;
  /** `invite`, `password-reset`, `notice.…` */
  kind: string;
  to: string;
  subject: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  createdTimestamp: string;
  /** When the next attempt is due, while queued. */
  nextAttemptTimestamp: string | null;
  sentTimestamp: string | null;
}

/** `POST /user/{id}/passwordreset`: the link, and whether it was mailed to the user too. */
export interface PasswordResetLink {
  link: string;
  sent: boolean;
}
