import {
  API_PREFIX,
  ApiError,
  forgotPasswordInput,
  invalidInput,
  loginInput,
  mfaInput,
  passkeyLoginInput,
  passkeyOptionsInput,
  registerInput,
  resetPasswordInput,
  z,
  loginAnswer,
  loginOptionsAnswer,
  mfaChallengeAnswer,
  passwordAnswer,
  webAuthnOptionsAnswer,
  type LoginAnswer,
  type MfaChallenge,
  type WebAuthnOptions,
} from '@tools-portal/core';
import { clearSessionCookie, DEVICE_COOKIE, setDeviceCookie, setSessionCookie } from '../cookies.js';
import { credentialOf } from '../middleware/auth.js';
import { logout, passwordLogin, registerWithPassword, secondFactorLogin, type LoginContext, type SignInBrowser } from '../services/sign-in/login.js';
import { rememberDevice } from '../services/sign-in/login-devices.js';
import { passkeyAuthenticationOptions, passkeyLogin } from '../services/sign-in/passkeys.js';
import { requestPasswordReset, resetWithToken } from '../services/sign-in/password-reset.js';
import { redirectAfterSignIn } from '../services/access/redirects.js';
import type { SecretBox } from '../services/support/secret-box.js';
import { beginStepUp, isPending, type SignedIn, type SignInOutcome } from '../services/sign-in/sign-in.js';
import type { Context } from 'koa';
import { actorContext, actorOf, requestOrigin, principalOf, route, serviceContext, type Deps, type RouteSpec } from './route.js';

/** A way in; `confirms` is the signed-in session that `Confirm: true` confirms (Confirm it's you, docs/oidc.md). */
type SignIn<Input, Outcome> = (ctx: SignInContext, input: Input, browser: SignInBrowser) => Promise<Outcome & { deviceId?: string }>;

/** A sign-in's services context: anonymous, from this request's origin, with the hasher and the secret box. */
type SignInContext = LoginContext & { policy: Deps['config']; secrets: SecretBox };

const signInContext = (ctx: Context, deps: Deps): SignInContext => ({
  db: deps.db,
  policy: deps.config,
  now: Date.now,
  actor: null,
  ...requestOrigin(ctx),
  hasher: deps.hasher,
  secrets: deps.secrets,
});
type SignInRoute<Input, Answer> = (input: { body: Input }, ctx: Context, deps: Deps) => Promise<Answer>;

/**
 * Password login and registration from an invite answer alike: the session cookie, and
 * {accesstoken, redirect} with the requested redirect if it may be followed for this user. A password login
 * of a user with a second factor answers {mfa: {token, methods}} instead, without a session.
 * A sign-in that cannot stop at a second factor (it is one, or the user has none yet) answers a session.
 * With `Confirm: true` it confirms the caller's signed-in session (whose user it must be) instead of
 * starting one: the session and its cookie are kept, and the answer carries that session's token.
 */
type SignInInput = { redirect?: string; Confirm?: boolean; Email?: string };

function signInHandler<Input extends SignInInput>(signIn: SignIn<Input, SignedIn>): SignInRoute<Input, LoginAnswer>;
function signInHandler<Input extends SignInInput>(signIn: SignIn<Input, SignInOutcome>): SignInRoute<Input, LoginAnswer | MfaChallenge>;
function signInHandler<Input extends SignInInput>(signIn: SignIn<Input, SignInOutcome>): SignInRoute<Input, LoginAnswer | MfaChallenge> {
  return async ({ body }, ctx, deps) => {
    const confirming = body.Confirm === true ? confirmedSession(ctx) : undefined;
    if (confirming && typeof body.Email === 'string' && body.Email.trim().toLowerCase() !== confirming.email) {
      throw invalidInput('Email', 'must be the email of the signed-in user');
    }
    const outcome = await signIn(signInContext(ctx, deps), body, { deviceId: ctx.cookies.get(DEVICE_COOKIE), confirms: confirming?.sessionId });
    if (outcome.deviceId) setDeviceCookie(ctx, deps.config, outcome.deviceId);
    if (isPending(outcome)) return { mfa: outcome.mfa };
    // A confirmation (here or through its pending second factor) keeps the session and its cookie.
    const token = outcome.confirmed ? (credentialOf(ctx)?.token ?? '') : outcome.token;
    if (!outcome.confirmed) setSessionCookie(ctx, deps.config, token);
    return {
      accesstoken: token,
      redirect: await redirectAfterSignIn(deps.db, { portalOrigin: deps.config.publicOrigin, target: body.redirect, user: outcome.user }),
    };
  };
}

/** The signed-in session that `Confirm: true` confirms: the caller's (cookie or Bearer session token), never an API key. */
function confirmedSession(ctx: Context): { sessionId: number; email: string } {
  const principal = principalOf(ctx);
  if (!principal || principal.via !== 'session' || principal.sessionId === undefined) {
    throw new ApiError('unauthenticated', 'there is no signed-in session to confirm; log in');
  }
  return { sessionId: principal.sessionId, email: principal.user.email };
}

export const authRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/validatepassword',
    body: loginInput,
    response: { schema: passwordAnswer },
    access: 'public',
    summary:
      "Log in: {Email, Password, redirect?, Confirm?} answers {accesstoken, redirect} and sets the cookie; Confirm: true confirms the signed-in session (Confirm it's you) instead",
    handler: signInHandler((ctx, input: z.output<typeof loginInput>, browser) => passwordLogin(ctx, { email: input.Email, password: input.Password }, browser)),
  }),
  route({
    method: 'POST',
    path: '/register',
    body: registerInput,
    response: { schema: loginAnswer },
    access: 'public',
    summary: 'Register from an invite: {Token, Password, redirect?} answers {accesstoken, redirect}',
    handler: signInHandler((ctx, input: z.output<typeof registerInput>, { deviceId }) =>
      registerWithPassword(ctx, { token: input.Token, password: input.Password }, { deviceId }),
    ),
  }),
  route({
    method: 'POST',
    path: '/passkey/options',
    body: passkeyOptionsInput,
    response: { schema: webAuthnOptionsAnswer },
    access: 'public',
    summary: "WebAuthn authentication options: {MfaToken?} (a pending sign-in's passkeys, or discoverable with user verification)",
    async handler({ body }, ctx, deps) {
      return (await passkeyAuthenticationOptions(signInContext(ctx, deps), body.MfaToken)) as WebAuthnOptions;
    },
  }),
  route({
    method: 'POST',
    path: '/validatepasskey',
    body: passkeyLoginInput,
    response: { schema: loginAnswer },
    access: 'public',
    summary:
      'Sign in with a passkey, alone or finishing a pending sign-in: {response, MfaToken?, redirect?, Confirm?} answers {accesstoken, redirect} and sets the cookie; Confirm: true confirms the signed-in session instead',
    handler: signInHandler((ctx, input: z.output<typeof passkeyLoginInput>, browser) =>
      passkeyLogin(ctx, { response: input.response, mfaToken: input.MfaToken }, browser),
    ),
  }),
  route({
    method: 'POST',
    path: '/validatemfa',
    access: 'public',
    summary: 'Second factor of a pending sign-in: {MfaToken, Code, redirect?} answers {accesstoken, redirect} and sets the cookie',
    body: mfaInput,
    response: { schema: loginAnswer },
    handler: signInHandler((ctx, input: z.output<typeof mfaInput>, { deviceId }) =>
      secondFactorLogin(ctx, { mfaToken: input.MfaToken, code: input.Code }, { deviceId }),
    ),
  }),
  route({
    method: 'POST',
    path: '/stepup',
    response: { schema: mfaChallengeAnswer },
    access: 'user',
    sessionOnly: true,
    summary:
      "Step the signed-in session up to two factors (Confirm it's you for acr_values=mfa): answers {mfa: {token, methods}}, a pending sign-in that /validatemfa or /validatepasskey finishes on this session; 409 for a user without a second factor",
    async handler(_input, ctx, { db }) {
      // sessionOnly: the caller is a session (cookie or Bearer session token), never an API key.
      return beginStepUp(db, actorOf(ctx), principalOf(ctx)!.sessionId!);
    },
  }),
  route({
    method: 'POST',
    path: '/forgotpassword',
    access: 'public',
    summary: 'Ask for a password-reset link by mail: {Email}; always 204 (at most 3 mails per email in 15 minutes; 429 past the limit per address)',
    body: forgotPasswordInput,
    response: { status: 204 },
    async handler({ body }, ctx, deps) {
      await requestPasswordReset(serviceContext(ctx, deps), body.Email);
    },
  }),
  route({
    method: 'POST',
    path: '/resetpassword',
    access: 'public',
    summary:
      'Set a new password with a mailed link: {Token, Password, redirect?} answers {accesstoken, redirect} like a login, or {mfa} for a user with a second factor',
    body: resetPasswordInput,
    response: { schema: passwordAnswer },
    handler: signInHandler(async (ctx, input: z.output<typeof resetPasswordInput>, { deviceId }) => {
      const outcome = await resetWithToken(ctx, { token: input.Token, password: input.Password });
      if (isPending(outcome)) return outcome;
      return { ...outcome, deviceId: await rememberDevice(ctx.db, { userId: outcome.user.id, oldId: deviceId, ttlDays: ctx.policy.sessionTtlDays }) };
    }),
  }),
  route({
    method: 'GET',
    path: '/loginoptions',
    response: { schema: loginOptionsAnswer },
    access: 'public',
    summary:
      'Which ways to log in the portal offers, its default language, and how it looks: {google, passwordReset, defaultLanguage, portalName, logo (its path or null), accentColor (#rrggbb or null), oldDocsUrl (or null)}',
    async handler(_input, _ctx, { config }) {
      const { branding } = config;
      return {
        google: config.google !== undefined,
        passwordReset: config.mail !== undefined,
        defaultLanguage: config.defaultLanguage,
        portalName: branding.portalName,
        logo: branding.logo ? `${API_PREFIX}/logo?v=${branding.logo.version}` : null,
        accentColor: branding.accentColor ?? null,
        oldDocsUrl: branding.oldDocsUrl ?? null,
      };
    },
  }),
  route({
    method: 'GET',
    path: '/logo',
    access: 'public',
    summary: "The portal's logo (PORTAL_LOGO), a PNG or WebP; cached for long when `v` is its current version; 404 without one",
    query: z.object({ v: z.string().optional().catch(undefined).describe("the logo's version, from /loginoptions") }),
    response: { content: ['image/png', 'image/webp'], description: 'the logo' },
    async handler({ query }, ctx, { config }) {
      const logo = config.branding.logo;
      if (!logo) throw new ApiError('not_found', 'this portal has no logo (PORTAL_LOGO)');
      ctx.set('Content-Type', logo.contentType);
      ctx.set('Content-Disposition', 'inline');
      ctx.set('Cache-Control', query.v === logo.version ? 'public, max-age=31536000, immutable' : 'public, no-cache');
      return logo.data;
    },
  }),
  route({
    method: 'POST',
    path: '/logout',
    response: { status: 204 },
    access: 'public',
    summary: 'End the current session and clear the cookie',
    duringEnrolment: true,
    async handler(_input, ctx, deps) {
      const principal = principalOf(ctx);
      if (principal) await logout(actorContext(ctx, deps), { sessionId: principal.sessionId });
      clearSessionCookie(ctx, deps.config);
    },
  }),
];
