import { appInput, appUpdate, notFound, appAnswer, userAnswer, z } from '@tools-portal/core';
import { encodedOnce } from '../encoded-json.js';
import { readIcon, removeIcon, setIcon } from '../services/app-icons.js';
import * as apps from '../services/apps.js';
import { MAX_ICON_BYTES } from '../services/icon-images.js';
import { usersOfApp } from '../services/users.js';
import { rawBodyOf } from './raw-body.js';
import { actorOf, auditOf, bodyOf, created, idParam, noContent, type RouteSpec } from './route.js';

export const appRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/app',
    response: { schema: z.array(appAnswer) },
    access: 'user',
    summary: 'Apps the caller may use (every app for admins): GET /app/ and GET /app alike',
    async handler(ctx, { db }) {
      // Remembered until the database changes or a grant expires: encoded (and compressed) once.
      ctx.body = encodedOnce(await apps.appListOf(db, actorOf(ctx)));
    },
  },
  {
    method: 'GET',
    path: '/app/:id',
    response: { schema: appAnswer },
    access: 'admin',
    summary: 'One app',
    async handler(ctx, { db }) {
      ctx.body = await apps.getApp(db, idParam(ctx, 'id'));
    },
  },
  {
    method: 'POST',
    path: '/app',
    body: appInput,
    response: { status: 201, schema: appAnswer },
    access: 'admin',
    summary: 'Create an app from {name, url, description, doclink, category, requestable}',
    async handler(ctx, { db }) {
      created(ctx, await apps.createApp(db, auditOf(ctx), bodyOf(ctx, appInput)));
    },
  },
  {
    method: 'PUT',
    path: '/app',
    body: appUpdate,
    response: { schema: appAnswer },
    access: 'admin',
    summary: 'Update an app from {id, name, url, description, doclink, category?, requestable?}',
    async handler(ctx, { db }) {
      ctx.body = await apps.updateApp(db, auditOf(ctx), bodyOf(ctx, appUpdate));
    },
  },
  {
    method: 'DELETE',
    path: '/app/:id',
    response: { status: 204 },
    access: 'admin',
    summary: 'Delete an app and every grant of it',
    async handler(ctx, { db }) {
      await apps.deleteApp(db, auditOf(ctx), idParam(ctx, 'id'));
      noContent(ctx);
    },
  },
  {
    method: 'GET',
    path: '/app/:id/user',
    response: { schema: z.array(userAnswer) },
    access: 'admin',
    summary: 'Users granted an app, by email',
    async handler(ctx, { db }) {
      const app = await apps.getApp(db, idParam(ctx, 'id'));
      ctx.body = await usersOfApp(db, app.id);
    },
  },
  {
    method: 'DELETE',
    path: '/app/:appid/user/:userid',
    response: { status: 204 },
    access: 'admin',
    summary: 'Remove a user from an app',
    async handler(ctx, { db }) {
      await apps.revokeApp(db, auditOf(ctx), idParam(ctx, 'userid'), idParam(ctx, 'appid'));
      noContent(ctx);
    },
  },
  {
    method: 'PUT',
    path: '/app/:id/icon',
    access: 'admin',
    summary: "Set an app's icon: a PNG, JPEG or WebP body of at most 256 KB (content checked; SVG refused)",
    async handler(ctx, { db }) {
      const id = idParam(ctx, 'id');
      const bytes = await rawBodyOf(ctx, MAX_ICON_BYTES, 'icon');
      ctx.body = await setIcon(db, auditOf(ctx), id, ctx.get('content-type'), bytes);
    },
  },
  {
    method: 'DELETE',
    path: '/app/:id/icon',
    access: 'admin',
    summary: "Remove an app's icon",
    async handler(ctx, { db }) {
      await removeIcon(db, auditOf(ctx), idParam(ctx, 'id'));
      noContent(ctx);
    },
  },
  {
    method: 'GET',
    path: '/app/:id/icon',
    access: 'user',
    summary: "An app's icon, for users who may see the app; cached for long when the URL's version is current",
    async handler(ctx, { db }) {
      const id = idParam(ctx, 'id');
      const icon = (await apps.mayUseAppNow(db, actorOf(ctx), id)) ? await readIcon(db, id) : undefined;
      if (!icon) throw notFound('icon of app', id);
      ctx.set('Content-Type', icon.contentType);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Disposition', 'inline');
      ctx.set('Cache-Control', ctx.query.v === icon.version ? 'private, max-age=31536000, immutable' : 'private, no-cache');
      ctx.body = icon.data;
    },
  },
];
