import {
  appInput,
  appUpdate,
  notFound,
  appAccessAnswer,
  appAnswer,
  appUserAnswer,
  grantableTeamAnswer,
  grantableUserAnswer,
  grantableUserQuery,
  listedAppAnswer,
  z,
} from '@tools-portal/core';
import { accessToApp } from '../services/access/access-of-app.js';
import { assertManagesApp } from '../services/apps/app-owners.js';
import { encodedOnce } from '../encoded-json.js';
import { readIcon, removeIcon, setIcon } from '../services/apps/app-icons.js';
import * as apps from '../services/apps/apps.js';
import { grantableTeams, grantableUser } from '../services/apps/grantees.js';
import { MAX_ICON_BYTES } from '../services/apps/icon-images.js';
import { usersOfApp } from '../services/users/users.js';
import { actorContext, actorOf, rawBody, route, type RouteSpec } from './route.js';

export const appRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/app',
    response: { schema: z.array(listedAppAnswer) },
    access: 'user',
    summary: 'Apps the caller may use (every app for admins): GET /app/ and GET /app alike',
    async handler(_input, ctx, { db }) {
      // Remembered until the database changes or a grant expires: encoded (and compressed) once.
      return encodedOnce(await apps.appListOf(db, actorOf(ctx)));
    },
  }),
  route({
    method: 'GET',
    path: '/app/:id',
    response: { schema: appAnswer },
    access: 'owner',
    summary: "One app, with its roles and owners; admins or the app's owners",
    async handler({ params }, ctx, deps) {
      return apps.getManagedApp(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/app',
    body: appInput,
    response: { status: 201, schema: appAnswer },
    access: 'admin',
    summary: 'Create an app from {name, url, description, doclink, category, requestable, roles?, owners?: {users, teams}}',
    async handler({ body }, ctx, deps) {
      return apps.createApp(actorContext(ctx, deps), body);
    },
  }),
  route({
    method: 'PUT',
    path: '/app',
    body: appUpdate,
    response: { schema: appAnswer },
    access: 'admin',
    summary:
      'Update an app from {id, name, url, description, doclink, category?, requestable?, roles?, owners?} (grants holding a removed role take the new default)',
    async handler({ body }, ctx, deps) {
      return apps.updateApp(actorContext(ctx, deps), body);
    },
  }),
  route({
    method: 'DELETE',
    path: '/app/:id',
    response: { status: 204 },
    access: 'admin',
    summary: 'Delete an app and every grant of it',
    async handler({ params }, ctx, deps) {
      await apps.deleteApp(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/app/:id/user',
    response: { schema: z.array(appUserAnswer) },
    access: 'owner',
    summary: "Users granted an app directly, by email; admins or the app's owners",
    async handler({ params }, ctx, deps) {
      await assertManagesApp(actorContext(ctx, deps), params.id);
      const app = await apps.getAppSummary(deps.db, params.id);
      return usersOfApp(deps.db, app.id);
    },
  }),
  route({
    method: 'GET',
    path: '/app/:id/access',
    response: { schema: z.array(appAccessAnswer) },
    access: 'owner',
    summary: "Every user who may use an app, with roles and sources (direct or the team) and expiry; admins or the app's owners",
    async handler({ params }, ctx, deps) {
      return accessToApp(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/app/:id/grantable/user',
    query: grantableUserQuery,
    response: { schema: grantableUserAnswer },
    access: 'owner',
    summary: "The user with exactly this email (?email=, a whole address, any case): {id, email}, else 404; admins or the app's owners",
    async handler({ params, query }, ctx, deps) {
      return grantableUser(actorContext(ctx, deps), { appId: params.id, email: query.email });
    },
  }),
  route({
    method: 'GET',
    path: '/app/:id/grantable/team',
    response: { schema: z.array(grantableTeamAnswer) },
    access: 'owner',
    summary: "The teams the app may be granted to, by name: {id, name} each; admins or the app's owners",
    async handler({ params }, ctx, deps) {
      return grantableTeams(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'DELETE',
    path: '/app/:appid/user/:userid',
    response: { status: 204 },
    access: 'owner',
    summary: "Remove a user's direct grant of an app; admins or the app's owners",
    async handler({ params }, ctx, deps) {
      await apps.revokeApp(actorContext(ctx, deps), { userId: params.userid, appId: params.appid });
    },
  }),
  route({
    method: 'PUT',
    path: '/app/:id/icon',
    access: 'admin',
    summary: "Set an app's icon: a PNG, JPEG or WebP body of at most 256 KB (content checked; SVG refused)",
    // Not JSON: the image's bytes, judged by their content (services/apps/icon-images.ts).
    body: rawBody('icon', MAX_ICON_BYTES, ['image/png', 'image/jpeg', 'image/webp']),
    response: { schema: appAnswer },
    async handler({ params, body }, ctx, deps) {
      return setIcon(actorContext(ctx, deps), { appId: params.id, declaredType: ctx.get('content-type'), data: body });
    },
  }),
  route({
    method: 'DELETE',
    path: '/app/:id/icon',
    access: 'admin',
    summary: "Remove an app's icon",
    response: { status: 204 },
    async handler({ params }, ctx, deps) {
      await removeIcon(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/app/:id/icon',
    access: 'user',
    summary: "An app's icon, for users who may see the app; cached for long when the URL's version is current",
    // `v` names the version the URL was made for; anything else (or a repeated v) is not current.
    query: z.object({ v: z.string().optional().catch(undefined).describe("the icon's version, from the app's icon path") }),
    response: { content: ['image/png', 'image/jpeg', 'image/webp'], description: 'the icon' },
    async handler({ params, query }, ctx, deps) {
      const icon = (await apps.mayUseAppNow(actorContext(ctx, deps), params.id)) ? await readIcon(deps.db, params.id) : undefined;
      if (!icon) throw notFound('icon of app', params.id);
      ctx.set('Content-Type', icon.contentType);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Disposition', 'inline');
      ctx.set('Cache-Control', query.v === icon.version ? 'private, max-age=31536000, immutable' : 'private, no-cache');
      return icon.data;
    },
  }),
];
