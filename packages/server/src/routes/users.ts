import {
  forbidden,
  grantInput,
  grantUpdate,
  accessTokenAnswer,
  grantedAppAnswer,
  keysRevokedAnswer,
  passwordResetLinkAnswer,
  requestableAppAnswer,
  userAnswer,
  userSecurityAnswer,
  z,
} from '@tools-portal/core';
import { requestableApps } from '../services/access/access-requests.js';
import { listKeysOfUser, revokeKeysOfUser } from '../services/users/api-keys.js';
import { appsOfUser, grantApp, revokeApp, updateGrant } from '../services/apps/apps.js';
import { setFavourite } from '../services/access/favourites.js';
import { adminPasswordReset } from '../services/sign-in/password-reset.js';
import { userSecurity } from '../services/users/user-security.js';
import * as users from '../services/users/users.js';
import { actorContext, actorOf, route, type RouteSpec } from './route.js';

export const userRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/user',
    response: { schema: z.array(userAnswer) },
    access: 'admin',
    summary: 'All users, by email',
    async handler(_input, _ctx, { db }) {
      return users.listUsers(db);
    },
  }),
  route({
    method: 'GET',
    path: '/user/me/accesstoken',
    response: { schema: z.array(accessTokenAnswer) },
    access: 'user',
    summary: "The caller's own API keys, masked",
    async handler(_input, ctx, { db }) {
      return listKeysOfUser(db, actorOf(ctx).id);
    },
  }),
  route({
    method: 'GET',
    path: '/user/me/requestable',
    response: { schema: z.array(requestableAppAnswer) },
    access: 'user',
    summary: 'Requestable apps the caller cannot use yet: {id, name, description, category}',
    async handler(_input, ctx, { db }) {
      return requestableApps(db, actorOf(ctx));
    },
  }),
  route({
    method: 'PUT',
    path: '/user/me/favourite/:appid',
    access: 'user',
    summary: 'Mark an app the caller may use as a favourite',
    response: { status: 204 },
    async handler({ params }, ctx, deps) {
      await setFavourite(actorContext(ctx, deps), { appId: params.appid, favourite: true });
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/me/favourite/:appid',
    access: 'user',
    summary: 'Unmark a favourite app',
    response: { status: 204 },
    async handler({ params }, ctx, deps) {
      await setFavourite(actorContext(ctx, deps), { appId: params.appid, favourite: false });
    },
  }),
  route({
    method: 'GET',
    path: '/user/:id',
    response: { schema: userAnswer },
    access: 'admin',
    summary: 'One user',
    async handler({ params }, _ctx, { db }) {
      return users.getUser(db, params.id);
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/:id',
    response: { status: 204 },
    access: 'admin',
    summary: "Delete a user's credentials: sessions, API keys and grants end at once",
    async handler({ params }, ctx, deps) {
      if (params.id === actorOf(ctx).id) throw forbidden('you cannot delete yourself');
      await users.deleteUser(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/user/:id/app',
    response: { schema: z.array(grantedAppAnswer) },
    access: 'admin',
    summary: 'Apps granted to a user',
    async handler({ params }, _ctx, { db }) {
      const user = await users.getUser(db, params.id);
      return appsOfUser(db, user.id);
    },
  }),
  route({
    method: 'POST',
    path: '/user/:id/app',
    body: grantInput,
    response: { status: 204 },
    access: 'owner',
    summary:
      "Grant an app to a user: {appid, role?, expires?} (role: one of the app's, else its default; expires: ISO 8601, in the future); admins or the app's owners",
    async handler({ params, body }, ctx, deps) {
      await grantApp(actorContext(ctx, deps), { userId: params.id, appId: body.appid, role: body.role, expiresAt: body.expires });
    },
  }),
  route({
    method: 'PUT',
    path: '/user/:id/app/:appid',
    access: 'owner',
    summary: "Change a grant's expiry and/or role: {expires?, role?} (expires: an ISO 8601 time in the future, or null for none); admins or the app's owners",
    body: grantUpdate,
    response: { status: 204 },
    async handler({ params, body }, ctx, deps) {
      await updateGrant(actorContext(ctx, deps), { userId: params.id, appId: params.appid, expiresAt: body.expires, role: body.role });
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/:id/app/:appid',
    response: { status: 204 },
    access: 'owner',
    summary: "Revoke an app from a user (the direct grant); admins or the app's owners",
    async handler({ params }, ctx, deps) {
      await revokeApp(actorContext(ctx, deps), { userId: params.id, appId: params.appid });
    },
  }),
  route({
    method: 'GET',
    path: '/user/:id/security',
    response: { schema: userSecurityAnswer },
    access: 'admin',
    summary: "A user's sign-in facts: created, last sign-in, authenticator app, passkeys, live sessions, API keys (counts only)",
    async handler({ params }, _ctx, { db }) {
      return userSecurity(db, params.id);
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/:id/session',
    response: { status: 204 },
    access: 'admin',
    summary: "End every session of a user now (the user's API keys stay valid)",
    async handler({ params }, ctx, deps) {
      await users.endUserSessions(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'DELETE',
    path: '/user/:id/accesstoken',
    response: { schema: keysRevokedAnswer },
    access: 'admin',
    sessionOnly: true,
    summary: 'Delete every API key of a user now: {revoked} (how many); needs a session, not an API key',
    async handler({ params }, ctx, deps) {
      return { revoked: await revokeKeysOfUser(actorContext(ctx, deps), params.id) };
    },
  }),
  route({
    method: 'POST',
    path: '/user/:id/passwordreset',
    response: { schema: passwordResetLinkAnswer },
    access: 'admin',
    summary: 'A password-reset link for the user: {link, sent}; mailed to the user when mail is configured',
    async handler({ params }, ctx, deps) {
      return adminPasswordReset(actorContext(ctx, deps), params.id);
    },
  }),
];
