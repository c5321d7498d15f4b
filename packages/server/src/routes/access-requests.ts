import { accessRequestInput, approveInput, denyInput } from '@tools-portal/core';
import * as requests from '../services/access-requests.js';
import { actorOf, auditOf, bodyOf, created, idParam, type RouteSpec } from './route.js';

export const accessRequestRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/accessrequest',
    access: 'user',
    summary: "The caller's own access requests; for admins every open one and the last 100 decided",
    async handler(ctx, { db }) {
      ctx.body = await requests.listRequests(db, actorOf(ctx));
    },
  },
  {
    method: 'POST',
    path: '/accessrequest',
    access: 'user',
    summary: 'Ask for a requestable app: {appid, reason}; 404 if not requestable, 409 if granted or already asked',
    async handler(ctx, { db, config }) {
      const { appid, reason } = bodyOf(ctx, accessRequestInput);
      created(ctx, await requests.createRequest(db, auditOf(ctx), appid, reason, config));
    },
  },
  {
    method: 'POST',
    path: '/accessrequest/:id/approve',
    access: 'admin',
    summary: 'Approve an open access request, granting the app: {expires?}',
    async handler(ctx, { db, config }) {
      const { expires } = bodyOf(ctx, approveInput);
      ctx.body = await requests.approveRequest(db, auditOf(ctx), idParam(ctx, 'id'), expires, config);
    },
  },
  {
    method: 'POST',
    path: '/accessrequest/:id/deny',
    access: 'admin',
    summary: 'Deny an open access request: {reason?}',
    async handler(ctx, { db, config }) {
      const { reason } = bodyOf(ctx, denyInput);
      ctx.body = await requests.denyRequest(db, auditOf(ctx), idParam(ctx, 'id'), reason, config);
    },
  },
];
