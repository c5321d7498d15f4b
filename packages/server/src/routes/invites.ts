import { inviteInput, registrationTokenAnswer, registrationTokenStatusAnswer, registrationTokenStatusInput, z } from '@tools-portal/core';
import * as invites from '../services/users/invites.js';
import { actorContext, route, serviceContext, type RouteSpec } from './route.js';

export const inviteRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/registrationtoken',
    response: { schema: z.array(registrationTokenAnswer) },
    access: 'admin',
    summary: 'Open invites, newest first',
    async handler(_input, _ctx, { db, config }) {
      return invites.listInvites(db, config.publicUrl);
    },
  }),
  route({
    method: 'POST',
    path: '/registrationtoken',
    body: inviteInput,
    response: { status: 201, schema: registrationTokenAnswer },
    access: 'admin',
    summary: 'Invite an email into a client with apps: {email, clientid, apps, send?}; the answer carries the link',
    async handler({ body }, ctx, deps) {
      return invites.createInvite(actorContext(ctx, deps), body);
    },
  }),
  route({
    method: 'POST',
    path: '/registrationtoken/status',
    body: registrationTokenStatusInput,
    response: { schema: registrationTokenStatusAnswer },
    access: 'public',
    summary:
      'Whether an invitation can still be used: {Token} answers {status: open | used | expired | unknown}, nothing else (TOKEN_CHECKS_PER_ADDRESS per 10 minutes, then 429)',
    async handler({ body }, ctx, deps) {
      return { status: await invites.invitationStatus(serviceContext(ctx, deps), body.Token) };
    },
  }),
  route({
    method: 'POST',
    path: '/registrationtoken/:tokenid/send',
    response: { schema: registrationTokenAnswer },
    access: 'admin',
    summary: "Mail an open invite's link to the invitee again (400 naming send when mail is not configured, 409 when it expired)",
    async handler({ params }, ctx, deps) {
      return invites.resendInvite(actorContext(ctx, deps), params.tokenid);
    },
  }),
  route({
    method: 'DELETE',
    path: '/registrationtoken/:tokenid',
    response: { status: 204 },
    access: 'admin',
    summary: 'Delete an open invite',
    async handler({ params }, ctx, deps) {
      await invites.deleteInvite(actorContext(ctx, deps), params.tokenid);
    },
  }),
];
