import { forbidden, grantInput, grantUpdate, accessTokenAnswer, appAnswer, userAnswer, z } from '@tools-portal/core';
import { requestableApps } from '../services/access-requests.js';
import { listKeysOfUser, revokeKeysOfUser } from '../services/api-keys.js';
import { appsOfUser, grantApp, revokeApp, setGrantExpiry } from '../services/apps.js';
import { setFavourite } from '../services/favourites.js';
import { adminPasswordReset } from '../services/password-reset.js';
import * as users from '../services/users.js';
import { actorOf, auditOf, bodyOf, idParam, noContent, type RouteSpec } from './route.js';

export const userRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/user',
    response: { schema: z.array(userAnswer) },
    access: 'admin',
    summary: 'All users, by email',
    async handler(ctx, { db }) {
      ctx.body = await users.listUsers(db);
    },
  },
  {
    method: 'GET',
    path: '/user/me/accesstoken',
    response: { schema: z.array(accessTokenAnswer) },
    access: 'user',
    summary: "The caller's own API keys, masked",
    async handler(ctx, { db }) {
      ctx.body = await listKeysOfUser(db, actorOf(ctx).id);
    },
  },
  {
    method: 'GET',
    path: '/user/me/requestable',
    access: 'user',
    summary: 'Requestable apps the caller cannot use yet: {id, name, description, category}',
    async handler(ctx, { db }) {
      ctx.body = await requestableApps(db, actorOf(ctx));
    },
  },
  {
    method: 'PUT',
    path: '/user/me/favourite/:appid',
    access: 'user',
    summary: 'Mark an app the caller may use as a favourite',
    async handler(ctx, { db }) {
      await setFavourite(db, actorOf(ctx), idParam(ctx, 'appid'), true);
      noContent(ctx);
    },
  },
  {
    method: 'DELETE',
    path: '/user/me/favourite/:appid',
    access: 'user',
    summary: 'Unmark a favourite app',
    async handler(ctx, { db }) {
      await setFavourite(db, actorOf(ctx), idParam(ctx, 'appid'), false);
      noContent(ctx);
    },
  },
  {
    method: 'GET',
    path: '/user/:id',
    response: { schema: userAnswer },
    access: 'admin',
    summary: 'One user',
    async handler(ctx, { db }) {
      ctx.body = await users.getUser(db, idParam(ctx, 'id'));
    },
  },
  {
    method: 'DELETE',
    path: '/user/:id',
    response: { status: 204 },
    access: 'admin',
    summary: "Delete a user's credentials: sessions, API keys and grants end at once",
    async handler(ctx, { db }) {
      const id = idParam(ctx, 'id');
      if (id === actorOf(ctx).id) throw forbidden('you cannot delete yourself');
      await users.deleteUser(db, auditOf(ctx), id);
      noContent(ctx);
    },
  },
  {
    method: 'GET',
    path: '/user/:id/app',
    response: { schema: z.array(appAnswer) },
    access: 'admin',
    summary: 'Apps granted to a user',
    async handler(ctx, { db }) {
      const user = await users.getUser(db, idParam(ctx, 'id'));
      ctx.body = await appsOfUser(db, user.id);
    },
  },
  {
    method: 'POST',
    path: '/user/:id/app',
    body: grantInput,
    response: { status: 204 },
    access: 'admin',
    summary: 'Grant an app to a user: {appid, expires?} (expires: ISO 8601, in the future)',
    async handler(ctx, { db }) {
      const { appid, expires } = bodyOf(ctx, grantInput);
      await grantApp(db, auditOf(ctx), idParam(ctx, 'id'), appid, expires);
      noContent(ctx);
    },
  },
  {
    method: 'PUT',
    path: '/user/:id/app/:appid',
    access: 'admin',
    summary: "Change a grant's expiry: {expires} (an ISO 8601 time in the future, or null for none)",
    async handler(ctx, { db }) {
      const { expires } = bodyOf(ctx, grantUpdate);
      await setGrantExpiry(db, auditOf(ctx), idParam(ctx, 'id'), idParam(ctx, 'appid'), expires);
      noContent(ctx);
    },
  },
  {
    method: 'DELETE',
    path: '/user/:id/app/:appid',
    response: { status: 204 },
    access: 'admin',
    summary: 'Revoke an app from a user',
    async handler(ctx, { db }) {
      await revokeApp(db, auditOf(ctx), idParam(ctx, 'id'), idParam(ctx, 'appid'));
      noContent(ctx);
    },
  },
  {
    method: 'DELETE',
    path: '/user/:id/session',
    response: { status: 204 },
    access: 'admin',
    summary: "End every session of a user now (the user's API keys stay valid)",
    async handler(ctx, { db }) {
      await users.endUserSessions(db, auditOf(ctx), idParam(ctx, 'id'));
      noContent(ctx);
    },
  },
  {
    method: 'DELETE',
    path: '/user/:id/accesstoken',
    response: { schema: z.object({ revoked: z.number().int() }) },
    access: 'admin',
    sessionOnly: true,
    summary: 'Delete every API key of a user now: {revoked} (how many); needs a session, not an API key',
    async handler(ctx, { db }) {
      ctx.body = { revoked: await revokeKeysOfUser(db, auditOf(ctx), idParam(ctx, 'id')) };
    },
  },
  {
    method: 'POST',
    path: '/user/:id/passwordreset',
    access: 'admin',
    summary: 'A password-reset link for the user: {link, sent}; mailed to the user when mail is configured',
    async handler(ctx, { db, config }) {
      ctx.body = await adminPasswordReset(db, auditOf(ctx), config, idParam(ctx, 'id'));
    },
  },
];
