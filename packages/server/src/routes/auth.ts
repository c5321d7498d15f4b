import { ApiError, forgotPasswordInput, invalidInput, loginInput, mfaInput, passkeyLoginInput, passkeyOptionsInput, registerInput, resetPasswordInput, type z, loginAnswer, loginOptionsAnswer, mfaChallengeAnswer, passwordAnswer } from '@tools-portal/core';
import { clearSessionCookie, DEVICE_COOKIE, setDeviceCookie, setSessionCookie } from '../cookies.js';
import { logout, passwordLogin, registerWithPassword, secondFactorLogin, type LoginDeps } from '../services/login.js';
import { credentialOf } from '../middleware/auth.js';
import { rememberDevice } from '../services/login-devices.js';
import { passkeyAuthenticationOptions, passkeyLogin, relyingPartyOf } from '../services/passkeys.js';
import { requestPasswordReset, resetWithToken } from '../services/password-reset.js';
import { redirectAfterSignIn } from '../services/redirects.js';
import type { ClientInfo } from '../services/sessions.js';
import { beginStepUp, isPending, type SignInOutcome } from '../services/sign-in.js';
import { actorOf, auditOf, bodyOf, clientInfo, noContent, principalOf, type Deps, type RouteSpec } from './route.js';

/**
 * Password login and registration from an invite answer alike: the session cookie, and
 * {accesstoken, redirect} with the requested redirect if it may be followed for this user. A password login
 * of a user with a second factor answers {mfa: {token, methods}} instead, without a session.
 */
function signInHandler<S extends z.ZodType<{ redirect?: string; Confirm?: boolean }>>(
  schema: S,
  signIn: (deps: Deps, info: ClientInfo, input: z.output<S>, deviceId: string | undefined, confirms: number | undefined) => Promise<SignInOutcome & { deviceId?: string }>,
): RouteSpec['handler'] {
  return async (ctx, deps) => {
    const input = bodyOf(ctx, schema);
    const confirming = input.Confirm === true ? confirmedSession(ctx) : undefined;
    const email = (input as { Email?: unknown }).Email;
    if (confirming && typeof email === 'string' && email.trim().toLowerCase() !== confirming.email) {
      throw invalidInput('Email', 'must be the email of the signed-in user');
    }
    const outcome = await signIn(deps, clientInfo(ctx), input, ctx.cookies.get(DEVICE_COOKIE), confirming?.sessionId);
    if (outcome.deviceId) setDeviceCookie(ctx, deps.config, outcome.deviceId);
    if (isPending(outcome)) {
      ctx.body = { mfa: outcome.mfa };
      return;
    }
    // A confirmation (here or through its pending second factor) keeps the session and its cookie.
    const token = outcome.confirmed ? (credentialOf(ctx)?.token ?? '') : outcome.token;
    if (!outcome.confirmed) setSessionCookie(ctx, deps.config, token);
    ctx.body = { accesstoken: token, redirect: await redirectAfterSignIn(deps.db, deps.config.publicOrigin, input.redirect, outcome.user) };
  };
}

/** The signed-in session that `Confirm: true` confirms: the caller's (cookie or Bearer session token), never an API key. */
function confirmedSession(ctx: Parameters<RouteSpec['handler']>[0]): { sessionId: number; email: string } {
  const principal = principalOf(ctx);
  if (!principal || principal.via !== 'session' || principal.sessionId === undefined) {
    throw new ApiError('unauthenticated', 'there is no signed-in session to confirm; log in');
  }
  return { sessionId: principal.sessionId, email: principal.user.email };
}

const loginDeps = (deps: Deps): LoginDeps => ({ db: deps.db, hasher: deps.hasher, policy: deps.config });

export const authRoutes: RouteSpec[] = [
  {
    method: 'POST',
    path: '/validatepassword',
    body: loginInput,
    response: { schema: passwordAnswer },
    access: 'public',
    summary: "Log in: {Email, Password, redirect?, Confirm?} answers {accesstoken, redirect} and sets the cookie; Confirm: true confirms the signed-in session (Confirm it's you) instead",
    handler: signInHandler(loginInput, (deps, info, input, deviceId, confirms) => passwordLogin(loginDeps(deps), info, input.Email, input.Password, deviceId, confirms)),
  },
  {
    method: 'POST',
    path: '/register',
    body: registerInput,
    response: { schema: loginAnswer },
    access: 'public',
    summary: 'Register from an invite: {Token, Password, redirect?} answers {accesstoken, redirect}',
    handler: signInHandler(registerInput, (deps, info, input, deviceId) => registerWithPassword(loginDeps(deps), info, input.Token, input.Password, deviceId)),
  },
  {
    method: 'POST',
    path: '/passkey/options',
    body: passkeyOptionsInput,
    access: 'public',
    summary: "WebAuthn authentication options: {MfaToken?} (a pending sign-in's passkeys, or discoverable with user verification)",
    async handler(ctx, { db, config }) {
      const { MfaToken } = bodyOf(ctx, passkeyOptionsInput);
      ctx.body = await passkeyAuthenticationOptions(db, config, relyingPartyOf(config.publicUrl), clientInfo(ctx), MfaToken);
    },
  },
  {
    method: 'POST',
    path: '/validatepasskey',
    body: passkeyLoginInput,
    response: { schema: loginAnswer },
    access: 'public',
    summary: 'Sign in with a passkey, alone or finishing a pending sign-in: {response, MfaToken?, redirect?, Confirm?} answers {accesstoken, redirect} and sets the cookie; Confirm: true confirms the signed-in session instead',
    handler: signInHandler(passkeyLoginInput, (deps, info, input, deviceId, confirms) =>
      passkeyLogin({ db: deps.db, policy: deps.config }, relyingPartyOf(deps.config.publicUrl), info, input.response, input.MfaToken, deviceId, confirms),
    ),
  },
  {
    method: 'POST',
    path: '/validatemfa',
    access: 'public',
    summary: 'Second factor of a pending sign-in: {MfaToken, Code, redirect?} answers {accesstoken, redirect} and sets the cookie',
    handler: signInHandler(mfaInput, (deps, info, input, deviceId) => secondFactorLogin(loginDeps(deps), deps.secrets, info, input.MfaToken, input.Code, deviceId)),
  },
  {
    method: 'POST',
    path: '/stepup',
    response: { schema: mfaChallengeAnswer },
    access: 'user',
    sessionOnly: true,
    summary:
      "Step the signed-in session up to two factors (Confirm it's you for acr_values=mfa): answers {mfa: {token, methods}}, a pending sign-in that /validatemfa or /validatepasskey finishes on this session; 409 for a user without a second factor",
    async handler(ctx, { db }) {
      // sessionOnly: the caller is a session (cookie or Bearer session token), never an API key.
      ctx.body = await beginStepUp(db, actorOf(ctx), principalOf(ctx)!.sessionId!);
    },
  },
  {
    method: 'POST',
    path: '/forgotpassword',
    access: 'public',
    summary: 'Ask for a password-reset link by mail: {Email}; always 204 (429 past the limits per email and address)',
    async handler(ctx, { db, config }) {
      const input = bodyOf(ctx, forgotPasswordInput);
      await requestPasswordReset(db, config, clientInfo(ctx), input.Email);
      noContent(ctx);
    },
  },
  {
    method: 'POST',
    path: '/resetpassword',
    access: 'public',
    summary: 'Set a new password with a mailed link: {Token, Password, redirect?} answers {accesstoken, redirect} like a login, or {mfa} for a user with a second factor',
    handler: signInHandler(resetPasswordInput, async ({ db, hasher, config }, info, input, deviceId) => {
      const outcome = await resetWithToken(db, hasher, config, info, input.Token, input.Password);
      if (isPending(outcome)) return outcome;
      return { ...outcome, deviceId: await rememberDevice(db, outcome.user.id, deviceId, config.sessionTtlDays) };
    }),
  },
  {
    method: 'GET',
    path: '/loginoptions',
    response: { schema: loginOptionsAnswer },
    access: 'public',
    summary: 'Which ways to log in the portal offers: {google, passwordReset}',
    async handler(ctx, { config }) {
      ctx.body = { google: config.google !== undefined, passwordReset: config.mail !== undefined };
    },
  },
  {
    method: 'POST',
    path: '/logout',
    response: { status: 204 },
    access: 'public',
    summary: 'End the current session and clear the cookie',
    duringEnrolment: true,
    async handler(ctx, { db, config }) {
      const principal = principalOf(ctx);
      if (principal) await logout(db, auditOf(ctx), principal.sessionId);
      clearSessionCookie(ctx, config);
      noContent(ctx);
    },
  },
];
