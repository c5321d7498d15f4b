import { accessTokenAnswer } from '@tools-portal/core';
import { createApiKey, deleteApiKey } from '../services/api-keys.js';
import { auditOf, created, noContent, type RouteSpec } from './route.js';

export const accessTokenRoutes: RouteSpec[] = [
  {
    method: 'POST',
    path: '/accesstoken/:token',
    response: { status: 201, schema: accessTokenAnswer },
    access: 'user',
    summary: 'Register an API key the caller generated (apikey- and 100 letters or digits)',
    async handler(ctx, { db }) {
      created(ctx, await createApiKey(db, auditOf(ctx), ctx.params.token ?? ''));
    },
  },
  {
    method: 'DELETE',
    path: '/accesstoken/:token',
    response: { status: 204 },
    access: 'user',
    summary: 'Delete an own API key, named by the full key or its id (admins: any key)',
    async handler(ctx, { db }) {
      await deleteApiKey(db, auditOf(ctx), ctx.params.token ?? '');
      noContent(ctx);
    },
  },
];
