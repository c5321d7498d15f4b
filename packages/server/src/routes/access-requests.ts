import { accessRequestAnswer, accessRequestInput, approveInput, denyInput, z } from '@tools-portal/core';
import * as requests from '../services/access/access-requests.js';
import { actorContext, actorOf, route, type RouteSpec } from './route.js';

export const accessRequestRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/accessrequest',
    response: { schema: z.array(accessRequestAnswer) },
    access: 'user',
    summary: "The caller's own access requests; for admins every open one and the last 100 decided; for an app's owners those of their apps too",
    async handler(_input, ctx, { db }) {
      return requests.listRequests(db, actorOf(ctx));
    },
  }),
  route({
    method: 'POST',
    path: '/accessrequest',
    body: accessRequestInput,
    response: { status: 201, schema: accessRequestAnswer },
    access: 'user',
    summary: 'Ask for a requestable app: {appid, role?, reason}; 404 if not requestable, 409 if granted or already asked',
    async handler({ body }, ctx, deps) {
      return requests.createRequest(actorContext(ctx, deps), { appId: body.appid, role: body.role, reason: body.reason });
    },
  }),
  route({
    method: 'POST',
    path: '/accessrequest/:id/approve',
    body: approveInput,
    response: { schema: accessRequestAnswer },
    access: 'owner',
    summary: "Approve an open access request, granting the app: {role?, expires?}; admins or the app's owners",
    async handler({ params, body }, ctx, deps) {
      return requests.approveRequest(actorContext(ctx, deps), { id: params.id, role: body.role, expiresAt: body.expires });
    },
  }),
  route({
    method: 'POST',
    path: '/accessrequest/:id/deny',
    body: denyInput,
    response: { schema: accessRequestAnswer },
    access: 'owner',
    summary: "Deny an open access request: {reason?}; admins or the app's owners",
    async handler({ params, body }, ctx, deps) {
      return requests.denyRequest(actorContext(ctx, deps), { id: params.id, reason: body.reason });
    },
  }),
];
