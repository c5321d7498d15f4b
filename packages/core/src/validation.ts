/**
 * Validation of every write input (docs/product.md §5: names non-empty and at most 200 characters, app
 * URLs absolute http(s) URLs, emails well formed, ids integers). Unknown fields are dropped, so a
 * body can never assign what its schema does not name.
 */
import { z } from 'zod';
import { ApiError, invalidInput } from './errors.js';
import { passwordLengthProblem } from './passwords.js';
import { LANGUAGES } from './languages.js';
import { ADMIN_CLIENT_NAME } from './permissions.js';

export const MAX_NAME_LENGTH = 200;
export const MAX_TEXT_LENGTH = 2000;
export const MAX_URL_LENGTH = 2000;
export const MAX_LOG_PAGE_SIZE = 100;

// C0 controls and DEL never belong in a one-line field.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
// PostgreSQL cannot store U+0000 in text at all; no field of ours needs it.
const noNul = (value: string) => !value.includes('\u0000');
const NUL_ERROR = { error: 'must not contain NUL characters' };

/** Ids are 32-bit integers in the schema (PostgreSQL `integer`), on every database. */
export const MAX_ID = 2_147_483_647;

const name = z
  .string({ error: 'must be a string' })
  .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters` })
  .refine((value) => value.trim().length > 0, { error: 'must not be empty' })
  .refine((value) => !CONTROL_CHARS.test(value), { error: 'must not contain control characters' });

export function isHttpUrl(value: string): boolean {
  if (CONTROL_CHARS.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const httpUrl = z
  .string({ error: 'must be a string' })
  .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
  .refine(isHttpUrl, { error: 'must be an absolute http(s) URL' });

const optionalHttpUrl = z
  .string({ error: 'must be a string' })
  .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
  .refine((value) => value === '' || isHttpUrl(value), { error: 'must be empty or an absolute http(s) URL' });

const text = z
  .string({ error: 'must be a string' })
  .max(MAX_TEXT_LENGTH, { error: `must be at most ${MAX_TEXT_LENGTH} characters` })
  .refine(noNul, NUL_ERROR);

export const email = z
  .string({ error: 'must be a string' })
  .max(254, { error: 'must be at most 254 characters' })
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.email({ error: 'must be a valid email address' }));

export const id = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer' })
  .positive({ error: 'must be a positive integer' })
  .max(MAX_ID, { error: 'is too large' });

/** Path parameters arrive as strings: only plain decimal digits are ids. */
export const pathId = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, { error: 'must be a positive integer' })
  .transform(Number)
  .pipe(id);

const bodyId = id;

const language = z.enum(LANGUAGES, { error: `must be one of ${LANGUAGES.join(', ')} or null` });

/** The length only: the server checks the rest with `@tools-portal/core/password-rules`. */
const password = z.string({ error: 'must be a string' }).superRefine((value, ctx) => {
  const problem = passwordLengthProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * Characters that make a name read or split differently downstream, where a client's name is the
 * comma-separated `Remote-Groups` header: controls (Cc), format characters such as zero-width
 * spaces and joiners, bidi overrides and the soft hyphen (Cf), line and paragraph separators.
 */
const INVISIBLE_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
// The one zero-width character a name may hold: a joiner inside an emoji sequence (👩‍👩‍👧).
const EMOJI_JOINER = /(\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?)\u200D(?=\p{Extended_Pictographic})/gu;
const hasInvisible = (value: string) => INVISIBLE_CHARS.test(value.replace(EMOJI_JOINER, '$1'));

/**
 * A client's name: trimmed; no comma (also none that NFKC turns into one, such as `，`), no
 * control or invisible character (docs/product.md §5).
 */
export const clientName = z
  .string({ error: 'must be a string' })
  .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters` })
  .transform((value) => value.trim())
  .refine((value) => value.length > 0, { error: 'must not be empty' })
  .refine((value) => !hasInvisible(value), { error: 'must not contain control or invisible characters' })
  .refine((value) => !value.normalize('NFKC').includes(','), { error: 'must not contain a comma' });

/**
 * A name as people and apps compare it: NFKC, then case folded (upper then lower case catches
 * letters such as the long s that have no lower-case pair of their own), then NFKC again.
 */
export function foldName(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/**
 * A client name that would pass for the Admin client's without being it: `ADMIN`, `ａｄｍｉｎ`...
 * The name `Admin` itself is left to the database's unique index (the Admin client exists).
 */
export function clientNameConflict(name: string): ApiError | null {
  if (name !== ADMIN_CLIENT_NAME && foldName(name) === foldName(ADMIN_CLIENT_NAME)) {
    return new ApiError('conflict', `client name ${name} is too close to ${ADMIN_CLIENT_NAME}, the admins' client`, { field: 'name' });
  }
  return null;
}

const category = z
  .string({ error: 'must be a string' })
  .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters` })
  .refine((value) => !CONTROL_CHARS.test(value), { error: 'must not contain control characters' })
  .transform((value) => value.trim());

const requestable = z.boolean({ error: 'must be true or false' });

/** An app role: `viewer`, `editor`, `release-manager` (docs/api.md, Teams, roles and owners). */
export const ROLE_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
export const MAX_APP_ROLES = 20;
export const role = z
  .string({ error: 'must be a string' })
  .max(32, { error: 'must be at most 32 characters' })
  .regex(ROLE_PATTERN, { error: 'must be a lower-case letter, then up to 31 lower-case letters, digits, _ or -' });

/** An app's roles, the first the default; none when the app has no roles. */
const roles = z
  .array(role, { error: 'must be a list of roles' })
  .max(MAX_APP_ROLES, { error: `must hold at most ${MAX_APP_ROLES} roles` })
  .refine((list) => new Set(list).size === list.length, { error: 'must not name a role twice' });

const idList = z
  .array(id, { error: 'must be a list of ids' })
  .max(1000)
  .transform((list) => [...new Set(list)]);

/** An app's owners: users and teams, by id. */
const owners = z.object({ users: idList.default([]), teams: idList.default([]) }, { error: 'must be {users: [id], teams: [id]}' });
export type AppOwners = z.output<typeof owners>;

const appFields = z.object({
  name,
  url: httpUrl,
  description: text.default(''),
  /** The description for German readers; empty: they read the English one. */
  descriptionDe: text.default(''),
  doclink: optionalHttpUrl.default(''),
});

export const appInput = appFields.extend({
  category: category.default(''),
  requestable: requestable.default(false),
  roles: roles.default([]),
  owners: owners.default({ users: [], teams: [] }),
});
export type AppInput = z.input<typeof appInput>;

/** A PUT without `descriptionDe`, `category`, `requestable`, `roles` or `owners` leaves them as they were. */
export const appUpdate = appFields.extend({
  id: bodyId,
  descriptionDe: text.optional(),
  category: category.optional(),
  requestable: requestable.optional(),
  roles: roles.optional(),
  owners: owners.optional(),
});
export type AppUpdate = z.input<typeof appUpdate>;

// ISO 8601 with a date and, optionally, a time and zone: `2026-12-01`, `2026-12-01T09:00:00Z`.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A point in time as ISO 8601, parsed to epoch milliseconds. Whether it is in the future is the server's check. */
export const isoTimeText = z
  .string({ error: 'must be an ISO 8601 time' })
  .max(64, { error: 'must be an ISO 8601 time' })
  .refine((value) => ISO_TIME.test(value) && Number.isFinite(Date.parse(value)), { error: 'must be an ISO 8601 time' });
export const isoTime = isoTimeText.transform((value) => Date.parse(value));

export const clientInput = z.object({ name: clientName });
export type ClientInput = z.input<typeof clientInput>;

export const clientUpdate = clientInput.extend({ id: bodyId });
export type ClientUpdate = z.input<typeof clientUpdate>;

export const inviteInput = z.object({
  email,
  clientid: bodyId,
  apps: z.array(bodyId, { error: 'must be a list of app ids' }).max(1000).default([]),
  /** Mail the link to the invitee (needs mail configured). */
  send: z.boolean({ error: 'must be true or false' }).optional(),
  /** The invitation mail's language; absent or null: DEFAULT_LANGUAGE. */
  language: language.nullable().optional(),
});
export type InviteInput = z.input<typeof inviteInput>;

/** `PUT /user/me`: the caller's language, or null to follow the browser. */
export const userMeUpdate = z.object({ language: language.nullable() });
export type UserMeUpdate = z.input<typeof userMeUpdate>;

/** A grant of an app: its role (the app's default when left out) and an optional expiry. */
export const grantInput = z.object({ appid: bodyId, role: role.optional(), expires: isoTime.optional() });
export type GrantInput = z.input<typeof grantInput>;

/** `PUT /user/{userid}/app/{appid}`: a new expiry (null for none) and/or role; what is left out stays. */
export const grantUpdate = z
  .object({ expires: isoTime.nullable().optional(), role: role.optional() })
  .refine((value) => value.expires !== undefined || value.role !== undefined, { error: 'must give expires or role', path: ['expires'] });
export type GrantUpdate = z.input<typeof grantUpdate>;

/**
 * A team's name: the client-name rules (docs/product.md §5), and never `Admin` or a name that
 * folds to it, which would read as the admins' client in `Remote-Groups` and `groups`.
 */
export const teamName = clientName.refine((value) => foldName(value) !== foldName(ADMIN_CLIENT_NAME), {
  error: `must not be ${ADMIN_CLIENT_NAME} or a name like it`,
});

export const teamInput = z.object({ name: teamName, description: text.default('') });
export type TeamInput = z.input<typeof teamInput>;

/** `PUT /team`: a team's new name; a description left out stays. */
export const teamUpdate = z.object({ id: bodyId, name: teamName, description: text.optional() });
export type TeamUpdate = z.input<typeof teamUpdate>;

export const membershipInput = z.object({ userid: bodyId, expires: isoTime.optional() });
export type MembershipInput = z.input<typeof membershipInput>;

/** `PUT /team/{id}/user/{userid}`: a new expiry, or null for none. */
export const membershipUpdate = z.object({ expires: isoTime.nullable() });
export type MembershipUpdate = z.input<typeof membershipUpdate>;

/** `GET /app/{id}/grantable/user`: a whole email address; no pattern, no part of one. */
export const grantableUserQuery = z.object({ email: email.describe('the exact email address of the user (any case)') });

/** @alias grantInput: a team's grant takes the same fields as a user's */
export const teamGrantInput = grantInput;
export type TeamGrantInput = z.input<typeof teamGrantInput>;

/** @alias grantUpdate: a team grant's change takes the same fields as a user grant's */
export const teamGrantUpdate = grantUpdate;
export type TeamGrantUpdate = z.input<typeof teamGrantUpdate>;

export const accessRequestInput = z.object({ appid: bodyId, role: role.optional(), reason: text.default('') });
export type AccessRequestInput = z.input<typeof accessRequestInput>;

/** The approver may pick the role (else the one asked for, else the default) and an expiry. */
export const approveInput = z.object({ role: role.optional(), expires: isoTime.optional() });
export type ApproveInput = z.input<typeof approveInput>;

/** `POST /accesstoken/{token}`: an optional name (trimmed) and expiry (in the future: the server's check). */
export const accessTokenInput = z.object({ name: name.transform((value) => value.trim()).optional(), expires: isoTime.optional() });
export type AccessTokenInput = z.input<typeof accessTokenInput>;

export const denyInput = z.object({ reason: text.default('') });
export type DenyInput = z.input<typeof denyInput>;

const redirect = z.string({ error: 'must be a string' }).max(MAX_URL_LENGTH).optional();

/**
 * `Confirm: true`: the sign-in confirms the caller's signed-in session (the Confirm it's you
 * screen, docs/oidc.md) instead of starting a new one.
 */
const Confirm = z.boolean({ error: 'must be true or false' }).optional();

/** Login checks only the shape: a wrong password must look like any other failure. */
export const loginInput = z.object({
  Email: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(254).refine(noNul, NUL_ERROR),
  Password: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(1024),
  redirect,
  Confirm,
});
export type LoginInput = z.input<typeof loginInput>;

/** A second factor for a pending sign-in: a 6-digit authenticator code or a recovery code. */
export const mfaInput = z.object({
  MfaToken: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(200),
  Code: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(64),
  redirect,
});
export type MfaInput = z.input<typeof mfaInput>;

export const codeInput = z.object({
  Code: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(64),
});

/**
 * `DELETE /user/me/totp`, `POST /user/me/recoverycodes`: the caller proves it is them with their
 * password or a second-factor code (authenticator or recovery code), one of the two.
 */
export const secondFactorProofInput = z
  .object({
    Password: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(1024).optional(),
    Code: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(64).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.Password === undefined && value.Code === undefined) ctx.addIssue({ code: 'custom', path: ['Password'], message: 'give your password or a Code' });
    else if (value.Password !== undefined && value.Code !== undefined)
      ctx.addIssue({ code: 'custom', path: ['Code'], message: 'give either Password or Code, not both' });
  });
export type SecondFactorProofInput = z.input<typeof secondFactorProofInput>;

/** `POST /registrationtoken/status`: an invitation's token, as its link carries it. */
export const registrationTokenStatusInput = z.object({
  Token: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(512).refine(noNul, NUL_ERROR),
});
export type RegistrationTokenStatusInput = z.input<typeof registrationTokenStatusInput>;

export const passwordChangeInput = z.object({
  Password: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(1024),
  NewPassword: z.string({ error: 'must be a string' }).max(1024),
});
export type PasswordChangeInput = z.input<typeof passwordChangeInput>;

export const registerInput = z.object({
  Token: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(512).refine(noNul, NUL_ERROR),
  Password: password,
  redirect,
});
export type RegisterInput = z.input<typeof registerInput>;

/** `POST /forgotpassword`: only the shape; whether the email is a user's must not show. */
export const forgotPasswordInput = z.object({
  Email: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(254).refine(noNul, NUL_ERROR),
});
export type ForgotPasswordInput = z.input<typeof forgotPasswordInput>;

/**
 * `POST /resetpassword`: the token of the mailed link and the new password (SPEC rules).
 * @alias the same rules as registerInput, named for its route
 */
export const resetPasswordInput = registerInput;
export type ResetPasswordInput = z.input<typeof resetPasswordInput>;

export const logPage = z.object({
  currentPage: pathId,
  perPage: pathId.pipe(z.number().max(MAX_LOG_PAGE_SIZE, { error: `must be at most ${MAX_LOG_PAGE_SIZE}` })),
});

/**
 * Parses input against a schema; the first problem becomes an `invalid_input` error naming the
 * field, e.g. `name: must not be empty`.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
  const message =
    issue.code !== 'invalid_type'
      ? issue.message
      : issue.path.length === 0
        ? 'must be a JSON object'
        : valueAt(input, issue.path) === undefined
          ? 'is required'
          : issue.message;
  throw invalidInput(field, message);
}

export { z };

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A WebAuthn ceremony's answer, as the browser library sends it; @simplewebauthn/server checks its shape. */
const webAuthnResponse = z.looseObject({
  id: z.string({ error: 'must be a string' }).min(1).max(1400),
  rawId: z.string({ error: 'must be a string' }).min(1).max(1400),
  type: z.literal('public-key', { error: 'must be "public-key"' }),
  response: z.looseObject({ clientDataJSON: z.string({ error: 'must be a string' }).max(10_000) }),
});

const passkeyName = z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(100);

export const passkeyRegisterInput = z.object({ response: webAuthnResponse, name: passkeyName.optional() });
export const passkeyRenameInput = z.object({ name: passkeyName });
export const passkeyOptionsInput = z.object({ MfaToken: z.string({ error: 'must be a string' }).min(1).max(200).optional() });
export const passkeyLoginInput = z.object({
  response: webAuthnResponse,
  MfaToken: z.string({ error: 'must be a string' }).min(1).max(200).optional(),
  redirect,
  Confirm,
});
