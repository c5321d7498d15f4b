import { inviteInput, registrationTokenAnswer, z } from '@tools-portal/core';
import * as invites from '../services/invites.js';
import { auditOf, bodyOf, created, idParam, noContent, type RouteSpec } from './route.js';

export const inviteRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/registrationtoken',
    response: { schema: z.array(registrationTokenAnswer) },
    access: 'admin',
    summary: 'Open invites, newest first',
    async handler(ctx, { db, config }) {
      ctx.body = await invites.listInvites(db, config.publicUrl);
    },
  },
  {
    method: 'POST',
    path: '/registrationtoken',
    body: inviteInput,
    response: { status: 201, schema: registrationTokenAnswer },
    access: 'admin',
    summary: 'Invite an email into a client with apps: {email, clientid, apps, send?}; the answer carries the link',
    async handler(ctx, { db, config }) {
      created(ctx, await invites.createInvite(db, auditOf(ctx), bodyOf(ctx, inviteInput), { ttlDays: config.inviteTtlDays, ...config }));
    },
  },
  {
    method: 'DELETE',
    path: '/registrationtoken/:tokenid',
    response: { status: 204 },
    access: 'admin',
    summary: 'Delete an open invite',
    async handler(ctx, { db }) {
      await invites.deleteInvite(db, auditOf(ctx), idParam(ctx, 'tokenid'));
      noContent(ctx);
    },
  },
];
