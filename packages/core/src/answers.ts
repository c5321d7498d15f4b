/**
 * The shapes the REST API answers with, as zod schemas, written once: entities.ts takes its types
 * from them (`z.infer`), the server's OpenAPI document is generated from them, and the API tests
 * check every answer against that document. The objects are strict: an answer with a field its
 * schema does not name, or without one it requires, fails the check. The few open parts say so
 * (error details, WebAuthn options). Timestamps are ISO 8601 strings.
 */
import { z } from 'zod';
import { errorCodes } from './errors.js';
import { LANGUAGES } from './languages.js';
import { oidcClientCreatedAnswer, oidcClientSettingsAnswer, oidcKeyRotationAnswer } from './oidc.js';
import { reviewAnswer, reviewItemAnswer } from './reviews.js';
import { webhookAnswer, webhookDeliveryAnswer, webhookSecretAnswer } from './webhooks.js';

const timestamp = z.string().describe('ISO 8601 timestamp');
const id = z.number().int();

export const clientAnswer = z.strictObject({ id, name: z.string() });

/** An app as every list shows it: without its owners. */
export const appSummaryAnswer = z.strictObject({
  id,
  name: z.string(),
  url: z.string(),
  description: z.string(),
  descriptionDe: z.string().describe('the description for German readers; empty: they read `description`'),
  doclink: z.string(),
  category: z.string().describe('free text that groups apps in the app list; may be empty'),
  requestable: z.boolean().describe('whether users may ask for access to it (POST /accessrequest/)'),
  icon: z.string().nullable().describe('the path of its icon on the portal, with a version (/api/auth/v1/app/7/icon?v=3), or null'),
  roles: z.array(z.string()).describe("the app's roles, the first the default; empty when it has none"),
});
const ownersAnswer = z.strictObject({ users: z.array(id), teams: z.array(id) }).describe('who manages its access: users and teams, by id');
/** An app with its owners (`GET /app/{id}`, `POST` and `PUT /app`). */
export const appAnswer = appSummaryAnswer.extend({ owners: ownersAnswer });
/** An app in the caller's own list (`GET /app/`, `GET /app`). */
export const listedAppAnswer = appSummaryAnswer.extend({ favourite: z.boolean() });
/**
 * An app a user may use (`GET /user/{id}/app`): `expires` only when the access ends (the latest
 * of its grants), the user's roles and where the access comes from.
 */
export const grantedAppAnswer = appSummaryAnswer.extend({
  expires: timestamp.optional(),
  grantedRoles: z.array(z.string()).describe("the user's roles for the app: the union over the grants that reach them, sorted"),
  sources: z.array(z.string()).describe('"direct" and/or the names of the teams whose grants reach the user'),
  lastUsed: timestamp.optional().describe('when the user last used the app through forward auth or an OpenID sign-in (written at most hourly)'),
});

export const userAnswer = z.strictObject({ id, email: z.string(), name: z.string(), client: clientAnswer });
/** A user of an app (`GET /app/{id}/user`); `expires` only when the grant expires. */
export const appUserAnswer = userAnswer.extend({ expires: timestamp.optional() });

/** The current user, with the admin flag the server derived. */
export const currentUserAnswer = userAnswer.extend({
  admin: z.boolean(),
  mfa: z.boolean().optional(),
  totp: z.boolean().optional(),
  mfaEnrollmentRequired: z.boolean().optional(),
  recoveryCodesLeft: z.number().int().optional(),
});
/** `GET /user/me`: the caller, whether they have a second factor (and an authenticator app), and whether this session is restricted to enrolling one. */
export const meAnswer = userAnswer.extend({
  admin: z.boolean(),
  mfa: z.boolean().describe('has a second factor: an authenticator app or a passkey'),
  totp: z.boolean().describe('has an authenticator app set up'),
  mfaEnrollmentRequired: z.boolean().describe('this session is restricted to setting up a second factor'),
  recoveryCodesLeft: z.number().int().describe('unused recovery codes (0 without an authenticator app)'),
  language: z.enum(LANGUAGES).nullable().describe('the language the user chose (PUT /user/me); null: their browser decides'),
  teams: z.array(z.strictObject({ id, name: z.string() })).describe('the teams the caller is an unexpired member of, by name'),
  owns: z.array(id).describe('ids of the apps the caller owns (directly or through a team)'),
});

/** A team (`GET /team`, `GET /team/{id}`). */
export const teamAnswer = z.strictObject({ id, name: z.string(), description: z.string() });
/** A member of a team (`GET /team/{id}/user`); `expires` only when the membership expires. */
export const teamMemberAnswer = userAnswer.extend({ expires: timestamp.optional() });
/** An app granted to a team (`GET /team/{id}/app`). */
export const teamAppAnswer = z.strictObject({
  id,
  name: z.string(),
  role: z.string().nullable().describe('the role the grant carries; null when the app has no roles'),
  expires: timestamp.optional(),
});
/**
 * `GET /app/{id}/grantable/user?email=`: the one user with exactly that email, for an app's owners
 * naming someone to grant (docs/product.md, Teams, app roles and owners): id and email only.
 */
export const grantableUserAnswer = z.strictObject({ id, email: z.string() });
/** `GET /app/{id}/grantable/team`: a team an app's owners may grant it to: id and name only. */
export const grantableTeamAnswer = z.strictObject({ id, name: z.string() });
/** One grant through which a user reaches an app. */
const accessSourceAnswer = z.strictObject({
  source: z.string().describe('"direct", or the name of the team'),
  team: z.strictObject({ id, name: z.string() }).optional(),
  role: z.string().nullable(),
  expires: timestamp.optional(),
});
/** `GET /app/{id}/access`: a user who may use the app, with their roles and every grant that reaches them. */
export const appAccessAnswer = userAnswer.extend({
  roles: z.array(z.string()),
  sources: z.array(accessSourceAnswer),
  lastUsed: timestamp.optional().describe('when the user last used the app through forward auth or an OpenID sign-in (written at most hourly)'),
});

/** `GET /user/me/requestable`: what a user may ask for, never its URL. */
export const requestableAppAnswer = z.strictObject({ id, name: z.string(), description: z.string(), descriptionDe: z.string(), category: z.string() });

export const accessRequestStatuses = ['open', 'approved', 'denied'] as const;
/** A user's request for an app; decided requests also carry who decided, when, and why. */
export const accessRequestAnswer = z.strictObject({
  id,
  app: z.strictObject({ id, name: z.string() }),
  user: z.strictObject({ id, email: z.string() }),
  reason: z.string(),
  role: z.string().optional().describe('the role asked for, or (once approved) granted'),
  status: z.enum(accessRequestStatuses),
  createdTimestamp: timestamp,
  decidedTimestamp: timestamp.optional(),
  decidedBy: z.string().optional(),
  decision: z.string().optional().describe("the reason given for a denial, by an admin or the app's owner"),
});

/** An invitation. `token` is the registration secret that goes into the link. */
export const registrationTokenAnswer = z.strictObject({
  id,
  email: z.string(),
  token: z.string(),
  sent_timestamp: timestamp,
  expires_timestamp: timestamp,
  client: clientAnswer,
  apps: z.array(id),
  language: z.enum(LANGUAGES).nullable().describe("the invitation mail's language; null: DEFAULT_LANGUAGE"),
  link: z.string().describe('the registration link, built by the server from PUBLIC_URL: {PUBLIC_URL}/{app}/register?token=…'),
});

/** An API key as lists show it: `token` is masked (`apikey-AbCd…wxyz`); the full key is shown once. */
export const accessTokenAnswer = z.strictObject({
  id,
  token: z.string().describe('masked (apikey-AbCd…wxyz)'),
  name: z.string().nullable().describe('what the owner called it, or null'),
  createdTimestamp: timestamp,
  expiresTimestamp: timestamp.nullable().describe('when it stops working, or null for never; an expired key answers 401 (it stays listed until deleted)'),
  lastUsedTimestamp: timestamp.nullable(),
  user: z.strictObject({ id, email: z.string() }),
});

/** `GET /user/{id}/security`: what an admin needs to know about a user's sign-ins, nothing secret. */
export const userSecurityAnswer = z.strictObject({
  createdTimestamp: timestamp,
  lastSignInTimestamp: timestamp.nullable().describe('the last successful sign-in the event log holds (password, passkey, Google, registration), or null'),
  totp: z.boolean().describe('has an authenticator app set up'),
  passkeys: z.number().int(),
  sessions: z.number().int().describe('sessions that have not expired'),
  apiKeys: z.number().int(),
});

/** `DELETE /user/{id}/accesstoken`: how many keys were deleted. */
export const keysRevokedAnswer = z.strictObject({ revoked: z.number().int() });

export const logEntryAnswer = z.strictObject({
  id,
  timestamp,
  type: z.string().describe('a type of the catalogue in events.ts, e.g. login.success (older entries may hold another)'),
  client: z.string().describe('the client the event is about'),
  user: z.string().describe('the user the event is about'),
  actor: z.string().describe('the email of who did it; empty when anonymous'),
  event: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  count: z.number().int().describe('how many times it happened: repeated denials within a minute share one entry'),
});

/** `GET /log/count`: how many entries match. */
export const logCountAnswer = z.strictObject({ total: z.number().int() });

/** Answer of `POST /validatepassword` and `POST /register/`. */
export const loginAnswer = z.strictObject({
  accesstoken: z.string(),
  redirect: z.string().describe('where the browser should go next: the requested target if it is safe, else the default'),
});

export const mfaMethods = ['totp', 'passkey', 'recovery'] as const;
/** What a correct password gets when the account has a second factor: the pending sign-in. */
export const mfaChallengeAnswer = z.strictObject({
  mfa: z.strictObject({ token: z.string().describe('the pending sign-in: 5 minutes, single use'), methods: z.array(z.enum(mfaMethods)) }),
});
/** What a correct password gets: a session, or a second factor to give first. */
export const passwordAnswer = z.union([loginAnswer, mfaChallengeAnswer]);

/** `GET /loginoptions`: which ways to log in the login screen should offer. */
export const loginOptionsAnswer = z.strictObject({
  google: z.boolean(),
  passwordReset: z.boolean().describe('whether "Forgot password?" works: mail is configured'),
  portalName: z.string().describe('PORTAL_NAME: the heading, navigation and page title'),
  logo: z.string().nullable().describe("the logo's path (PORTAL_LOGO), or null without one"),
  accentColor: z.string().nullable().describe('PORTAL_ACCENT_COLOR as #rrggbb, or null'),
  oldDocsUrl: z.string().nullable().describe('OLD_DOCS_URL: where "old documentation" leads, or null (no link)'),
  defaultLanguage: z.enum(LANGUAGES).describe('DEFAULT_LANGUAGE: the language of readers who chose none and whose browser names none the portal speaks'),
});

export const registrationTokenStatuses = ['open', 'used', 'expired', 'unknown'] as const;
/** `POST /registrationtoken/status`: whether an invitation can still be used; nothing else about it. */
export const registrationTokenStatusAnswer = z.strictObject({ status: z.enum(registrationTokenStatuses) });

/** `POST /user/me/totp`: a pending authenticator-app enrolment. */
export const totpEnrolmentAnswer = z.strictObject({
  secret: z.string().describe('Base32, 160 bits'),
  uri: z.string().describe('otpauth://totp/…, for the QR code'),
});

/** `POST /user/me/totp/confirm`: the recovery codes, shown this once. */
export const recoveryCodesAnswer = z.strictObject({ recoveryCodes: z.array(z.string()) });

/** One of the caller's passkeys. */
export const passkeyAnswer = z.strictObject({ id, name: z.string(), createdTimestamp: timestamp });

/**
 * WebAuthn options as @simplewebauthn/server makes them (the W3C `PublicKeyCredential…OptionsJSON`),
 * passed to the browser as they are: open beyond the challenge, by design.
 */
export const webAuthnOptionsAnswer = z
  .looseObject({ challenge: z.string() })
  .describe('WebAuthn options (W3C PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON)');

/** One of the caller's sessions (`GET /user/me/session`). */
export const userSessionAnswer = z.strictObject({
  id,
  current: z.boolean().describe('the session this call was made with'),
  name: z.string().nullable().describe('"toolsctl on HOST" for a sign-in from a terminal (device grant); null for a browser'),
  createdTimestamp: timestamp,
  lastUsedTimestamp: timestamp.nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});

export const healthAnswer = z.strictObject({ status: z.enum(['ok', 'unavailable']) });

export const mailStatuses = ['queued', 'sending', 'sent', 'failed'] as const;
/** A mail of the outbox as admins see it (`GET /mail`): never its body. */
export const mailEntryAnswer = z.strictObject({
  id,
  kind: z.string().describe('invite, password-reset, notice.…'),
  to: z.string(),
  subject: z.string(),
  status: z.enum(mailStatuses),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdTimestamp: timestamp,
  nextAttemptTimestamp: timestamp.nullable().describe('when the next attempt is due, while queued'),
  sentTimestamp: timestamp.nullable(),
});

/** `POST /user/{id}/passwordreset`: the link, and whether it was mailed to the user too. */
export const passwordResetLinkAnswer = z.strictObject({ link: z.string(), sent: z.boolean() });

/** Every error answer: `{"error": {"code", "message", "details"}}`; details are open (field, retryAfter, requestId, …). */
export const errorAnswer = z.strictObject({
  error: z.strictObject({
    code: z.enum(errorCodes),
    message: z.string(),
    details: z.looseObject({ field: z.string().optional(), retryAfter: z.number().optional(), requestId: z.string().optional() }).optional(),
  }),
});

/** The named answer shapes: the OpenAPI document's components. */
export const answerSchemas = {
  App: appAnswer,
  AppSummary: appSummaryAnswer,
  Team: teamAnswer,
  TeamMember: teamMemberAnswer,
  TeamApp: teamAppAnswer,
  GrantableUser: grantableUserAnswer,
  GrantableTeam: grantableTeamAnswer,
  AppAccess: appAccessAnswer,
  ListedApp: listedAppAnswer,
  GrantedApp: grantedAppAnswer,
  RequestableApp: requestableAppAnswer,
  AccessRequest: accessRequestAnswer,
  Client: clientAnswer,
  User: userAnswer,
  AppUser: appUserAnswer,
  UserSecurity: userSecurityAnswer,
  CurrentUser: currentUserAnswer,
  Me: meAnswer,
  RegistrationToken: registrationTokenAnswer,
  AccessToken: accessTokenAnswer,
  LogEntry: logEntryAnswer,
  LoginAnswer: loginAnswer,
  MfaChallenge: mfaChallengeAnswer,
  LoginOptions: loginOptionsAnswer,
  RegistrationTokenStatus: registrationTokenStatusAnswer,
  TotpEnrolment: totpEnrolmentAnswer,
  RecoveryCodes: recoveryCodesAnswer,
  Passkey: passkeyAnswer,
  WebAuthnOptions: webAuthnOptionsAnswer,
  UserSession: userSessionAnswer,
  MailEntry: mailEntryAnswer,
  PasswordResetLink: passwordResetLinkAnswer,
  OidcClientSettings: oidcClientSettingsAnswer,
  OidcClientCreated: oidcClientCreatedAnswer,
  OidcKeyRotation: oidcKeyRotationAnswer,
  Webhook: webhookAnswer,
  WebhookWithSecret: webhookSecretAnswer,
  WebhookDelivery: webhookDeliveryAnswer,
  Review: reviewAnswer,
  ReviewItem: reviewItemAnswer,
  Error: errorAnswer,
} as const;
