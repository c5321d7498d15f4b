import { inviteInput } from '@tools-portal/core';
import * as invites from '../services/invites.js';
import { auditOf, bodyOf, created, idParam, noContent, type RouteSpec } from './route.js';

export const inviteRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/registrationtoken',
    access: 'admin',
    summary: 'Open invites, newest first',
    async handler(ctx, { db, config }) {
      ctx.body = await invites.listInvites(db, config.publicUrl);
    },
  },
  {
    method: 'POST',
    path: '/registrationtoken',
    access: 'admin',
    summary: 'Invite an email into a client with apps: {email, clientid, apps, send?}; the answer carries the link',
    async handler(ctx, { db, config }) {
      created(ctx, await invites.createInvite(db, auditOf(ctx), bodyOf(ctx, inviteInput), { ttlDays: config.inviteTtlDays, ...config }));
    },
  },
  {
    method: 'DELETE',
    path: '/registrationtoken/:tokenid',
    access: 'admin',
    summary: 'Delete an open invite',
    async handler(ctx, { db }) {
      await invites.deleteInvite(db, auditOf(ctx), idParam(ctx, 'tokenid'));
      noContent(ctx);
    },
  },
];
