/**
 * The caller's own account: second factors, sessions and password (docs/api.md), and the admin's
 * reset of a user's second factors. None of these takes an API key: a leaked key must not be able
 * to take over an account.
 */
import {
  ApiError,
  codeInput,
  meAnswer,
  passkeyAnswer,
  recoveryCodesAnswer,
  totpEnrolmentAnswer,
  userSessionAnswer,
  webAuthnOptionsAnswer,
  passkeyRegisterInput,
  passkeyRenameInput,
  passwordChangeInput,
  secondFactorProofInput,
  userMeUpdate,
  z,
  type WebAuthnOptions,
} from '@tools-portal/core';
import { disableTotp, recoveryCodesLeft, renewRecoveryCodes, type Proof } from '../services/sign-in/account-factors.js';
import { changePassword } from '../services/sign-in/login.js';
import { deletePasskey, listPasskeys, passkeyRegistrationOptions, registerPasskey, renamePasskey } from '../services/sign-in/passkeys.js';
import { confirmTotp, resetSecondFactors, secondFactorsOf, startTotpEnrolment } from '../services/sign-in/second-factors.js';
import { liftRestriction, listSessionsOfUser, revokeOtherOwnSessions, revokeOwnSession } from '../services/sign-in/sessions.js';
import { getUser, languageOf, setLanguage } from '../services/users/users.js';
import { ownedAppIds } from '../services/apps/app-owners.js';
import { teamsOfUser } from '../services/teams/teams.js';
import { actorContext, actorOf, principalOf, route, type Deps, type RouteSpec } from './route.js';
import type { Context } from 'koa';

const proofOf = (body: z.output<typeof secondFactorProofInput>): Proof => (body.Code !== undefined ? { code: body.Code } : { password: body.Password ?? '' });

const accountFactorsContext = (ctx: Context, deps: Deps) => ({ ...actorContext(ctx, deps), hasher: deps.hasher, secrets: deps.secrets });

export const accountRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/user/me',
    response: { schema: meAnswer },
    access: 'user',
    duringEnrolment: true,
    summary:
      'The caller, with its client, admin flag, mfa (has a second factor), totp (has an authenticator app), recoveryCodesLeft (unused recovery codes), mfaEnrollmentRequired (this session is restricted), language, teams and owns (ids of the apps it owns)',
    async handler(_input, ctx, { db }) {
      const user = actorOf(ctx);
      const [factors, language, teams, owns] = await Promise.all([
        secondFactorsOf(db, user.id),
        languageOf(db, user.id),
        teamsOfUser(db, user.id),
        ownedAppIds(db, user.id),
      ]);
      return {
        ...user,
        mfa: factors.length > 0,
        totp: factors.includes('totp'),
        recoveryCodesLeft: factors.includes('totp') ? await recoveryCodesLeft(db, user.id) : 0,
        mfaEnrollmentRequired: principalOf(ctx)?.restricted ?? false,
        language,
        teams,
        owns,
      };
    },
  }),
  route({
    method: 'PUT',
    path: '/user/me',
    body: userMeUpdate,
    response: { status: 204 },
    access: 'user',
    duringEnrolment: true,
    summary: 'Choose the language of the web portal and of mail to you: {language: "de" | "en" | null}; null follows the browser',
    async handler({ body }, ctx, deps) {
      await setLanguage(actorContext(ctx, deps), body.language);
    },
  }),
  route({
    method: 'POST',
    path: '/user/me/totp',
    response: { schema: totpEnrolmentAnswer },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: 'Start setting up an authenticator app: answers {secret, uri}',
    async handler(_input, ctx, { db, secrets, config }) {
      return startTotpEnrolment(db, secrets, { user: actorOf(ctx), issuer: config.branding.portalName });
    },
  }),
  route({
    method: 'POST',
    path: '/user/me/totp/confirm',
    response: { schema: recoveryCodesAnswer },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: 'Turn the authenticator app on with a code: {Code} answers {recoveryCodes} (shown this once)',
    body: codeInput,
    async handler({ body }, ctx, deps) {
      const recoveryCodes = await confirmTotp({ ...actorContext(ctx, deps), secrets: deps.secrets }, body.Code.replace(/\s+/g, ''));
      await liftRestriction(deps.db, principalOf(ctx)?.sessionId);
      return { recoveryCodes };
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/me/totp',
    response: { status: 204 },
    access: 'user',
    sessionOnly: true,
    summary:
      'Turn the authenticator app off, with its recovery codes: {Password} or {Code} (a JSON body); 400 naming the field when wrong, 409 without an app or when MFA_REQUIRED needs it as the last factor',
    body: secondFactorProofInput,
    async handler({ body }, ctx, deps) {
      await disableTotp(accountFactorsContext(ctx, deps), proofOf(body));
    },
  }),
  route({
    method: 'POST',
    path: '/user/me/recoverycodes',
    response: { schema: recoveryCodesAnswer },
    access: 'user',
    sessionOnly: true,
    summary: 'New recovery codes, the old ones stop working: {Password} or {Code} answers {recoveryCodes} (shown this once); 409 without an authenticator app',
    body: secondFactorProofInput,
    async handler({ body }, ctx, deps) {
      return { recoveryCodes: await renewRecoveryCodes(accountFactorsContext(ctx, deps), proofOf(body)) };
    },
  }),
  route({
    method: 'POST',
    path: '/user/me/passkey/options',
    response: { schema: webAuthnOptionsAnswer },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: 'WebAuthn registration options for adding a passkey (the challenge lasts 5 minutes, used once)',
    async handler(_input, ctx, deps) {
      return (await passkeyRegistrationOptions(actorContext(ctx, deps))) as WebAuthnOptions;
    },
  }),
  route({
    method: 'POST',
    path: '/user/me/passkey',
    body: passkeyRegisterInput,
    response: { status: 201, schema: passkeyAnswer },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: 'Register a passkey: {response, name?} answers 201 {id, name, createdTimestamp}; lifts an MFA_REQUIRED restriction of this session',
    async handler({ body }, ctx, deps) {
      const passkey = await registerPasskey(actorContext(ctx, deps), body);
      await liftRestriction(deps.db, principalOf(ctx)?.sessionId);
      return passkey;
    },
  }),
  route({
    method: 'GET',
    path: '/user/me/passkey',
    response: { schema: z.array(passkeyAnswer) },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: "The caller's passkeys: [{id, name, createdTimestamp}]",
    async handler(_input, ctx, { db }) {
      return listPasskeys(db, actorOf(ctx).id);
    },
  }),
  route({
    method: 'PUT',
    path: '/user/me/passkey/:id',
    body: passkeyRenameInput,
    response: { schema: passkeyAnswer },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: "Rename one of the caller's passkeys: {name}",
    async handler({ params, body }, ctx, deps) {
      return renamePasskey(actorContext(ctx, deps), { id: params.id, name: body.name });
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/me/passkey/:id',
    response: { status: 204 },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: "Delete one of the caller's passkeys",
    async handler({ params }, ctx, deps) {
      await deletePasskey(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/user/me/session',
    response: { schema: z.array(userSessionAnswer) },
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: "The caller's sessions: [{id, current, createdTimestamp, lastUsedTimestamp, ip, userAgent}]",
    async handler(_input, ctx, { db }) {
      return listSessionsOfUser(db, actorOf(ctx).id, principalOf(ctx)?.sessionId);
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/me/session/:id',
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: "End one of the caller's own sessions",
    response: { status: 204 },
    async handler({ params }, ctx, deps) {
      if (!(await revokeOwnSession(actorContext(ctx, deps), params.id))) throw new ApiError('not_found', `session ${params.id} does not exist`);
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/me/session',
    access: 'user',
    sessionOnly: true,
    duringEnrolment: true,
    summary: "End all of the caller's sessions but the current one",
    response: { status: 204 },
    async handler(_input, ctx, deps) {
      await revokeOtherOwnSessions(actorContext(ctx, deps), principalOf(ctx)?.sessionId);
    },
  }),
  route({
    method: 'POST',
    path: '/user/me/password',
    access: 'user',
    sessionOnly: true,
    summary: "Change the caller's password: {Password, NewPassword}; ends their other sessions",
    body: passwordChangeInput,
    response: { status: 204 },
    async handler({ body }, ctx, deps) {
      await changePassword(
        { ...actorContext(ctx, deps), hasher: deps.hasher },
        { sessionId: principalOf(ctx)?.sessionId, current: body.Password, next: body.NewPassword },
      );
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/:id/mfa',
    access: 'admin',
    sessionOnly: true,
    summary: 'Remove every second factor of a user and end their sessions (admin)',
    response: { status: 204 },
    async handler({ params }, ctx, deps) {
      await resetSecondFactors(actorContext(ctx, deps), await getUser(deps.db, params.id));
    },
  }),
];
