import { accessTokenAnswer, accessTokenInput } from '@tools-portal/core';
import { createApiKey, deleteApiKey } from '../services/users/api-keys.js';
import { actorContext, route, type RouteSpec } from './route.js';

// Keys mint and delete keys only from a session (docs/security.md): a leaked key must not be able
// to make a second one that outlives its own deletion.
export const accessTokenRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/accesstoken/:token',
    body: accessTokenInput,
    response: { status: 201, schema: accessTokenAnswer },
    access: 'user',
    sessionOnly: true,
    summary:
      'Register an API key the caller generated (apikey- and 100 letters or digits), with an optional body {name?, expires?} (expires: ISO 8601, in the future)',
    async handler({ params, body }, ctx, deps) {
      return createApiKey(actorContext(ctx, deps), { ...body, key: params.token });
    },
  }),
  route({
    method: 'DELETE',
    path: '/accesstoken/:token',
    response: { status: 204 },
    access: 'user',
    sessionOnly: true,
    summary: 'Delete an own API key, named by the full key or its id (admins: any key)',
    async handler({ params }, ctx, deps) {
      await deleteApiKey(actorContext(ctx, deps), params.token);
    },
  }),
];
