import { appInput, appUpdate, appAnswer, userAnswer, z } from '@tools-portal/core';
import * as apps from '../services/apps.js';
import { usersOfApp } from '../services/users.js';
import { actorOf, auditOf, bodyOf, created, idParam, noContent, type RouteSpec } from './route.js';

export const appRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/app',
    response: { schema: z.array(appAnswer) },
    access: 'user',
    summary: 'Apps the caller may use (every app for admins): GET /app/ and GET /app alike',
    async handler(ctx, { db }) {
      const actor = actorOf(ctx);
      ctx.body = actor.admin ? await apps.listApps(db) : await apps.appsOfUser(db, actor.id);
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
    summary: 'Create an app from {name, url, description, doclink}',
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
    summary: 'Update an app from {id, name, url, description, doclink}',
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
];
