/**
 * The typed client of the REST API (docs/product.md §7), shared by the web portal and toolsctl.
 * It takes a `fetch`, so the browser passes its own and the CLI passes Node's.
 */
import type {
  AccessRequest,
  AccessToken,
  AppAccess,
  AppUser,
  GrantableTeam,
  GrantableUser,
  GrantedApp,
  KeysRevoked,
  UserSecurity,
  ListedApp,
  LogCount,
  ManagedApp,
  RequestableApp,
  Client,
  Health,
  LogEntry,
  LoginAnswer,
  LoginOptions,
  MailEntry,
  Me,
  Passkey,
  PasswordAnswer,
  MfaChallenge,
  PasswordResetLink,
  RecoveryCodes,
  TotpEnrolment,
  UserSession,
  RegistrationToken,
  RegistrationTokenStatus,
  Team,
  TeamApp,
  TeamMember,
  User,
} from './entities.js';
import { isMfaChallenge } from './entities.js';
import { ApiError, codeForStatus, isErrorCode } from './errors.js';
import { logFilterQuery, type LogFilter } from './log-filter.js';
import type { DeviceRequest } from './device.js';
import type { OidcClientCreated, OidcClientInput, OidcClientSettings, OidcKeyRotation } from './oidc.js';
import type { Webhook, WebhookDelivery, WebhookInput, WebhookUpdate, WebhookWithSecret } from './webhooks.js';
import type { Language } from './languages.js';
import type { SetupApplied, SetupApplyInput, SetupExport, SetupPlan, SetupPlanInput } from './setup-document.js';
import type { Review, ReviewBulkDecisionInput, ReviewDecisionInput, ReviewInput, ReviewItem, ReviewItemFilter } from './reviews.js';
import type {
  AccessRequestInput,
  AccessTokenInput,
  AppInput,
  AppUpdate,
  ForgotPasswordInput,
  InviteInput,
  LoginInput,
  RegisterInput,
  ResetPasswordInput,
  SecondFactorProofInput,
  TeamInput,
  TeamUpdate,
} from './validation.js';

/** A grant's role and expiry (ISO 8601, in the future); left out: the app's default role, no expiry. */
export interface GrantOptions {
  role?: string;
  expires?: string;
}

/** A change of a grant: a new expiry (null: none) and/or role. */
export interface GrantChange {
  role?: string;
  expires?: string | null;
}

const grantOptions = (options: string | GrantOptions | undefined): GrantOptions =>
  typeof options === 'string' ? { expires: options } : Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined));

export const API_PREFIX = '/api/auth/v1';

export type LogExportFormat = 'csv' | 'jsonl';

/** How a passkey's answer signs in: alone, or finishing a pending sign-in (`mfaToken`), going on to `redirect`. */
export interface PasskeySignIn {
  mfaToken?: string;
  redirect?: string;
  /** Confirms the caller's signed-in session instead of signing in anew (Confirm it's you, docs/oidc.md). */
  confirm?: boolean;
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface PortalClientOptions {
  /** The portal's origin, e.g. `http://127.0.0.1:8080`; empty for same-origin browser use. */
  baseUrl?: string;
  /** A session token or an API key, sent as Bearer. Browsers leave it out and use the cookie. */
  token?: string;
  fetch?: Fetch;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const segment = (value: string | number) => encodeURIComponent(String(value));

/** A body sent as it is, with its own content type (an icon's bytes), instead of as JSON. */
class RawBody {
  constructor(
    readonly bytes: BodyInit,
    readonly contentType: string,
  ) {}
}

export class PortalClient {
  readonly baseUrl: string;
  token: string | undefined;
  private readonly fetchImpl: Fetch;

  constructor(options: PortalClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
    this.token = options.token;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Sends one call; answers the parsed JSON body, or undefined for 204. Failures throw ApiError. */
  async request<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const response = await this.send(method, path, { body, accept: 'application/json' });
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    const json = text ? safeJson(text) : undefined;
    if (!response.ok) throw errorFromAnswer(response, json);
    return json as T;
  }

  /** A GET whose successful answer is left unread, for streaming its body; failures throw ApiError. */
  async stream(path: string): Promise<Response> {
    const response = await this.send('GET', path, { accept: '*/*' });
    if (response.ok) return response;
    const text = await response.text();
    throw errorFromAnswer(response, text ? safeJson(text) : undefined);
  }

  /** The full URL of an API path, e.g. for a download link in the browser. */
  url(path: string): string {
    return `${this.baseUrl}${API_PREFIX}${path}`;
  }

  private async send(method: Method, path: string, { body, accept }: { body?: unknown; accept: string }): Promise<Response> {
    const headers: Record<string, string> = { accept };
    if (body !== undefined) headers['content-type'] = body instanceof RawBody ? body.contentType : 'application/json';
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const url = path.startsWith('/healthz') ? `${this.baseUrl}${path}` : `${this.baseUrl}${API_PREFIX}${path}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : body instanceof RawBody ? body.bytes : JSON.stringify(body),
        credentials: 'same-origin',
      });
    } catch (error) {
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new ApiError('unavailable', `cannot reach ${this.baseUrl || 'the portal'}: ${reason}`, { network: true });
    }
    return response;
  }

  readonly apps = {
    /** The apps the current user may use (all apps for admins). */
    list: () => this.request<ListedApp[]>('GET', '/app/'),
    /** All apps, for the user-app dialog (same answer as list for non-admins). */
    all: () => this.request<ListedApp[]>('GET', '/app'),
    get: (id: number) => this.request<ManagedApp>('GET', `/app/${segment(id)}`),
    create: (input: AppInput) => this.request<ManagedApp>('POST', '/app/', input),
    update: (input: AppUpdate) => this.request<ManagedApp>('PUT', '/app/', input),
    delete: (id: number) => this.request<void>('DELETE', `/app/${segment(id)}`),
    /** The app as an OpenID Connect client: enable (or replace, with a new secret), read, turn off. */
    oidc: {
      enable: (id: number, input: OidcClientInput) => this.request<OidcClientCreated>('POST', `/app/${segment(id)}/oidc`, input),
      get: (id: number) => this.request<OidcClientSettings>('GET', `/app/${segment(id)}/oidc`),
      disable: (id: number) => this.request<void>('DELETE', `/app/${segment(id)}/oidc`),
    },
    /** Users granted the app directly (admins and the app's owners). */
    users: (id: number) => this.request<AppUser[]>('GET', `/app/${segment(id)}/user`),
    /** Everyone who may use the app, with roles and sources: direct or the team (admins and the app's owners). */
    access: (id: number) => this.request<AppAccess[]>('GET', `/app/${segment(id)}/access`),
    /** The user with exactly this email, id and email only, for naming whom to grant the app (admins and the app's owners). */
    grantableUser: (id: number, email: string) => this.request<GrantableUser>('GET', `/app/${segment(id)}/grantable/user?email=${encodeURIComponent(email)}`),
    /** The teams the app may be granted to, id and name only (admins and the app's owners). */
    grantableTeams: (id: number) => this.request<GrantableTeam[]>('GET', `/app/${segment(id)}/grantable/team`),
    /** Sets an app's icon: PNG, JPEG or WebP bytes, at most 256 KB. */
    setIcon: (id: number, bytes: BodyInit, contentType: string) => this.request<ManagedApp>('PUT', `/app/${segment(id)}/icon`, new RawBody(bytes, contentType)),
    removeIcon: (id: number) => this.request<void>('DELETE', `/app/${segment(id)}/icon`),
    removeUser: (appId: number, userId: number) => this.request<void>('DELETE', `/app/${segment(appId)}/user/${segment(userId)}`),
  };

  readonly users = {
    list: () => this.request<User[]>('GET', '/user/'),
    get: (id: number) => this.request<User>('GET', `/user/${segment(id)}`),
    me: () => this.request<Me>('GET', '/user/me'),
    /** The caller's language for the web portal and mail; null follows the browser. */
    setLanguage: (language: Language | null) => this.request<void>('PUT', '/user/me', { language }),
    delete: (id: number) => this.request<void>('DELETE', `/user/${segment(id)}`),
    apps: (id: number) => this.request<GrantedApp[]>('GET', `/user/${segment(id)}/app`),
    /** Grants an app; `expires` (ISO 8601, in the future) makes the grant end then; `role` is one of the app's (else its default). */
    grant: (userId: number, appId: number, options?: string | GrantOptions) =>
      this.request<void>('POST', `/user/${segment(userId)}/app`, { appid: appId, ...grantOptions(options) }),
    /** Changes an existing grant's expiry (null: none). */
    setGrantExpiry: (userId: number, appId: number, expires: string | null) =>
      this.request<void>('PUT', `/user/${segment(userId)}/app/${segment(appId)}`, { expires }),
    /** Changes an existing grant's role and/or expiry. */
    updateGrant: (userId: number, appId: number, change: GrantChange) => this.request<void>('PUT', `/user/${segment(userId)}/app/${segment(appId)}`, change),
    favourite: (appId: number) => this.request<void>('PUT', `/user/me/favourite/${segment(appId)}`),
    unfavourite: (appId: number) => this.request<void>('DELETE', `/user/me/favourite/${segment(appId)}`),
    /** Requestable apps the caller cannot use yet. */
    requestable: () => this.request<RequestableApp[]>('GET', '/user/me/requestable'),
    revoke: (userId: number, appId: number) => this.request<void>('DELETE', `/user/${segment(userId)}/app/${segment(appId)}`),
    /** Sign-in facts of a user for admins: second factors, sessions, keys, created, last sign-in. */
    security: (id: number) => this.request<UserSecurity>('GET', `/user/${segment(id)}/security`),
    /** Ends every session of a user at once (API keys stay valid). */
    endSessions: (id: number) => this.request<void>('DELETE', `/user/${segment(id)}/session`),
    /** Admins, signed in (not with an API key): deletes every API key of a user; answers how many. */
    revokeKeys: (id: number) => this.request<KeysRevoked>('DELETE', `/user/${segment(id)}/accesstoken`),
    /** A password-reset link for the user, mailed to them too when mail is configured. */
    passwordReset: (id: number) => this.request<PasswordResetLink>('POST', `/user/${segment(id)}/passwordreset`),
    /** Admins: removes every second factor of a user and ends their sessions. */
    resetMfa: (id: number) => this.request<void>('DELETE', `/user/${segment(id)}/mfa`),
  };

  /**
   * The caller's own account: password, second factors, sessions. Every change here refuses
   * API keys (403), so that a leaked key cannot take over an account.
   */
  readonly account = {
    /** Ends the caller's other sessions; a wrong current password answers 401. */
    changePassword: (password: string, newPassword: string) =>
      this.request<void>('POST', '/user/me/password', { Password: password, NewPassword: newPassword }),
    totp: {
      /** Starts an enrolment: a new secret, not active until confirmed. */
      start: () => this.request<TotpEnrolment>('POST', '/user/me/totp'),
      /** Turns the app on with one of its codes; answers the recovery codes, shown this once. */
      confirm: (code: string) => this.request<RecoveryCodes>('POST', '/user/me/totp/confirm', { Code: code }),
      /** Turns the app off (and its recovery codes), proven by the password or a code. */
      disable: (proof: SecondFactorProofInput) => this.request<void>('DELETE', '/user/me/totp', proof),
    },
    /** New recovery codes, proven by the password or a code: the old ones stop working; shown this once. */
    newRecoveryCodes: (proof: SecondFactorProofInput) => this.request<RecoveryCodes>('POST', '/user/me/recoverycodes', proof),
    passkeys: {
      list: () => this.request<Passkey[]>('GET', '/user/me/passkey'),
      /** WebAuthn registration options for the browser's ceremony. */
      options: () => this.request<unknown>('POST', '/user/me/passkey/options'),
      /** Registers the ceremony's answer. */
      register: (response: unknown, name?: string) => this.request<Passkey>('POST', '/user/me/passkey', name === undefined ? { response } : { response, name }),
      rename: (id: number, name: string) => this.request<Passkey>('PUT', `/user/me/passkey/${segment(id)}`, { name }),
      delete: (id: number) => this.request<void>('DELETE', `/user/me/passkey/${segment(id)}`),
    },
    sessions: {
      list: () => this.request<UserSession[]>('GET', '/user/me/session'),
      /** Ends one of the caller's sessions (404 for anyone else's). */
      revoke: (id: number) => this.request<void>('DELETE', `/user/me/session/${segment(id)}`),
      /** Ends every session of the caller but the current one. */
      revokeOthers: () => this.request<void>('DELETE', '/user/me/session'),
    },
  };

  readonly clients = {
    list: () => this.request<Client[]>('GET', '/client/'),
    get: (id: number) => this.request<Client>('GET', `/client/${segment(id)}`),
    users: (id: number) => this.request<User[]>('GET', `/client/${segment(id)}/user`),
    create: (name: string) => this.request<Client>('POST', '/client/', { name }),
    /** Renames a client (not the Admin client). */
    rename: (id: number, name: string) => this.request<Client>('PUT', '/client/', { id, name }),
    delete: (id: number) => this.request<void>('DELETE', `/client/${segment(id)}`),
  };

  /** The portal's setup as a file (docs/cli.md): export, plan and apply a setup document. */
  readonly setup = {
    export: () => this.request<SetupExport>('GET', '/config'),
    plan: (input: SetupPlanInput) => this.request<SetupPlan>('POST', '/config/plan', input),
    apply: (input: SetupApplyInput) => this.request<SetupApplied>('POST', '/config/apply', input),
  };

  readonly teams = {
    /** Every team for admins; the caller's own for others. */
    list: () => this.request<Team[]>('GET', '/team/'),
    get: (id: number) => this.request<Team>('GET', `/team/${segment(id)}`),
    create: (input: TeamInput) => this.request<Team>('POST', '/team/', input),
    update: (input: TeamUpdate) => this.request<Team>('PUT', '/team/', input),
    delete: (id: number) => this.request<void>('DELETE', `/team/${segment(id)}`),
    users: (id: number) => this.request<TeamMember[]>('GET', `/team/${segment(id)}/user`),
    addUser: (id: number, input: { userid: number; expires?: string }) => this.request<void>('POST', `/team/${segment(id)}/user`, input),
    setUserExpiry: (id: number, userId: number, expires: string | null) =>
      this.request<void>('PUT', `/team/${segment(id)}/user/${segment(userId)}`, { expires }),
    removeUser: (id: number, userId: number) => this.request<void>('DELETE', `/team/${segment(id)}/user/${segment(userId)}`),
    apps: (id: number) => this.request<TeamApp[]>('GET', `/team/${segment(id)}/app`),
    grant: (id: number, input: { appid: number } & GrantOptions) => this.request<void>('POST', `/team/${segment(id)}/app`, input),
    updateGrant: (id: number, appId: number, change: GrantChange) => this.request<void>('PUT', `/team/${segment(id)}/app/${segment(appId)}`, change),
    revoke: (id: number, appId: number) => this.request<void>('DELETE', `/team/${segment(id)}/app/${segment(appId)}`),
  };

  readonly invites = {
    list: () => this.request<RegistrationToken[]>('GET', '/registrationtoken/'),
    create: (input: InviteInput) => this.request<RegistrationToken>('POST', '/registrationtoken/', input),
    delete: (id: number) => this.request<void>('DELETE', `/registrationtoken/${segment(id)}`),
    /** Mails the open invite's link again; mail must be configured. */
    resend: (id: number) => this.request<RegistrationToken>('POST', `/registrationtoken/${segment(id)}/send`),
  };

  readonly accessTokens = {
    /** The current user's own API keys, masked. */
    list: () => this.request<AccessToken[]>('GET', '/user/me/accesstoken/'),
    /**
     * Registers a key generated by the caller (see generateApiKey), with an optional name and
     * expiry (ISO 8601, in the future). Needs a session: an API key cannot create keys.
     */
    create: (key: string, input?: AccessTokenInput) => this.request<AccessToken>('POST', `/accesstoken/${segment(key)}`, input),
    /** Takes the full key or the key's id. Needs a session, like create. */
    delete: (keyOrId: string | number) => this.request<void>('DELETE', `/accesstoken/${segment(keyOrId)}`),
  };

  /** The verification page of the device grant (docs/oidc.md, Device grant). */
  readonly device = {
    /** Which device asks with this code (404 for a wrong or used code). */
    lookup: (userCode: string) => this.request<DeviceRequest>('POST', '/device/lookup', { user_code: userCode }),
    /** Signs the device in: a new session "toolsctl on HOST" of the caller. */
    approve: (userCode: string) => this.request<void>('POST', '/device/approve', { user_code: userCode }),
    deny: (userCode: string) => this.request<void>('POST', '/device/deny', { user_code: userCode }),
  };

  readonly oidc = {
    /** Adds new signing keys; the old ones stay published until their tokens have expired. */
    rotateKeys: () => this.request<OidcKeyRotation>('POST', '/oidc/keys/rotate'),
  };

  readonly accessRequests = {
    /** The caller's own requests; for admins every open one and the last 100 decided. */
    list: () => this.request<AccessRequest[]>('GET', '/accessrequest/'),
    create: (input: AccessRequestInput) => this.request<AccessRequest>('POST', '/accessrequest/', input),
    /** Approves (admins and the app's owners), with an expiry and/or the role to grant. */
    approve: (id: number, options?: string | GrantOptions) =>
      this.request<AccessRequest>('POST', `/accessrequest/${segment(id)}/approve`, grantOptions(options)),
    deny: (id: number, reason?: string) => this.request<AccessRequest>('POST', `/accessrequest/${segment(id)}/deny`, reason === undefined ? {} : { reason }),
  };

  readonly logs = {
    /** A page of the log, newest first, of the entries the filter matches (docs/event-log.md). */
    page: (currentPage: number, perPage: number, filter: LogFilter = {}) =>
      this.request<LogEntry[]>('GET', `/log/${segment(currentPage)}/${segment(perPage)}${logFilterQuery(filter)}`),
    /** How many entries match; with `max`, counting stops there (the web's 50 pages need 1,000). */
    count: (filter: LogFilter = {}, max?: number) =>
      this.request<LogCount>('GET', `/log/count${logFilterQuery(filter, max === undefined ? {} : { max: String(max) })}`),
    /** Every matching entry, newest first, as a streamed CSV or JSON Lines answer. */
    export: (format: LogExportFormat, filter: LogFilter = {}) => this.stream(this.logs.exportPath(format, filter)),
    exportPath: (format: LogExportFormat, filter: LogFilter = {}) => `/log/export${logFilterQuery(filter, { format })}`,
  };

  /** Access reviews (docs/reviews.md): admins, and app owners for their apps. */
  readonly reviews = {
    list: () => this.request<Review[]>('GET', '/review'),
    get: (id: number) => this.request<Review>('GET', `/review/${segment(id)}`),
    start: (input: ReviewInput) => this.request<Review>('POST', '/review', input),
    items: (id: number, filter: ReviewItemFilter = {}) => this.request<ReviewItem[]>('GET', `/review/${segment(id)}/item${reviewItemQuery(filter)}`),
    decide: (id: number, itemId: number, input: ReviewDecisionInput) =>
      this.request<ReviewItem>('POST', `/review/${segment(id)}/item/${segment(itemId)}`, input),
    decideMany: (id: number, input: ReviewBulkDecisionInput) => this.request<ReviewItem[]>('POST', `/review/${segment(id)}/decide`, input),
    close: (id: number) => this.request<Review>('POST', `/review/${segment(id)}/close`),
    /** The evidence, streamed: every item with its decision, as CSV or JSON Lines. */
    export: (id: number, format: LogExportFormat = 'csv') => this.stream(this.reviews.exportPath(id, format)),
    exportPath: (id: number, format: LogExportFormat = 'csv') => `/review/${segment(id)}/export?format=${format}`,
  };

  readonly mail = {
    /** The outbox, newest first (admins). */
    list: () => this.request<MailEntry[]>('GET', '/mail'),
  };

  /** Signed webhooks of event-log entries (admins, docs/webhooks.md). */
  readonly webhooks = {
    list: () => this.request<Webhook[]>('GET', '/webhook'),
    get: (id: number) => this.request<Webhook>('GET', `/webhook/${segment(id)}`),
    /** Answers the hook with its signing secret, shown this once. */
    create: (input: WebhookInput) => this.request<WebhookWithSecret>('POST', '/webhook', input),
    update: (id: number, input: WebhookUpdate) => this.request<Webhook>('PUT', `/webhook/${segment(id)}`, input),
    delete: (id: number) => this.request<void>('DELETE', `/webhook/${segment(id)}`),
    /** A new signing secret, shown this once; the old one signs too for 24 hours. */
    rotateSecret: (id: number) => this.request<WebhookWithSecret>('POST', `/webhook/${segment(id)}/secret`),
    /** Sends a test entry to the hook now; answers the delivery after its first attempt. */
    test: (id: number) => this.request<WebhookDelivery>('POST', `/webhook/${segment(id)}/test`),
    /** The last 100 deliveries, newest first. */
    deliveries: (id: number) => this.request<WebhookDelivery[]>('GET', `/webhook/${segment(id)}/delivery`),
  };

  readonly auth = {
    /** A session, or for a user with a second factor a pending sign-in (see isMfaChallenge). */
    signIn: (input: LoginInput) => this.request<PasswordAnswer>('POST', '/validatepassword', input),
    /** signIn for callers that cannot give a second factor: a pending sign-in is an error here. */
    login: async (input: LoginInput): Promise<LoginAnswer> => {
      const answer = await this.auth.signIn(input);
      if (isMfaChallenge(answer)) {
        throw new ApiError('unauthenticated', 'this account asks for a second factor', { mfa: answer.mfa.methods.join(',') });
      }
      return answer;
    },
    /** Finishes a pending sign-in with an authenticator code or a recovery code. */
    validateMfa: (mfaToken: string, code: string, redirect?: string) =>
      this.request<LoginAnswer>(
        'POST',
        '/validatemfa',
        redirect === undefined ? { MfaToken: mfaToken, Code: code } : { MfaToken: mfaToken, Code: code, redirect },
      ),
    /** WebAuthn authentication options: for a pending sign-in's user, or discoverable without a token. */
    passkeyOptions: (mfaToken?: string) => this.request<unknown>('POST', '/passkey/options', mfaToken === undefined ? {} : { MfaToken: mfaToken }),
    /** Signs in with a passkey's assertion (alone, or finishing a pending sign-in); `confirm` confirms the signed-in session instead. */
    validatePasskey: (response: unknown, { mfaToken, redirect, confirm }: PasskeySignIn = {}) =>
      this.request<LoginAnswer>('POST', '/validatepasskey', {
        response,
        ...(mfaToken === undefined ? {} : { MfaToken: mfaToken }),
        ...(redirect === undefined ? {} : { redirect }),
        ...(confirm ? { Confirm: true } : {}),
      }),
    register: (input: RegisterInput) => this.request<LoginAnswer>('POST', '/register/', input),
    /** Whether an invitation's token can still be used: open, used, expired or unknown. */
    invitationStatus: async (token: string) =>
      (await this.request<{ status: RegistrationTokenStatus }>('POST', '/registrationtoken/status', { Token: token })).status,
    /** A pending sign-in that steps the caller's session up to two factors (acr_values=mfa): finish it with validateMfa or validatePasskey. */
    stepUp: () => this.request<MfaChallenge>('POST', '/stepup'),
    logout: () => this.request<void>('POST', '/logout'),
    options: () => this.request<LoginOptions>('GET', '/loginoptions'),
    /** Asks for a password-reset link by mail; answers the same whether or not the email is a user's. */
    forgotPassword: (input: ForgotPasswordInput) => this.request<void>('POST', '/forgotpassword', input),
    /** Sets a new password with a mailed link's token and signs in. */
    /** A user with a second factor gets the pending sign-in ({mfa}) instead of a session. */
    resetPassword: (input: ResetPasswordInput) => this.request<PasswordAnswer>('POST', '/resetpassword', input),
  };

  health(): Promise<Health> {
    return this.request<Health>('GET', '/healthz');
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorFromAnswer(response: Response, json: unknown): ApiError {
  const error = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  const code = isErrorCode(error?.code) ? error.code : codeForStatus(response.status);
  const message = typeof error?.message === 'string' ? error.message : `${response.status} ${response.statusText}`.trim();
  const details = error?.details && typeof error.details === 'object' ? { ...(error.details as object) } : {};
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? { ...details, retryAfter } : details);
}

function reviewItemQuery(filter: ReviewItemFilter): string {
  const query = new URLSearchParams();
  if (filter.decided !== undefined) query.set('decided', String(filter.decided));
  if (filter.app !== undefined) query.set('app', String(filter.app));
  if (filter.unusedDays !== undefined) query.set('unusedDays', String(filter.unusedDays));
  const text = query.toString();
  return text ? `?${text}` : '';
}
