import { mailEntryAnswer, z } from '@tools-portal/core';
import { listOutbox } from '../services/mail/outbox.js';
import { route, type RouteSpec } from './route.js';

export const mailRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/mail',
    response: { schema: z.array(mailEntryAnswer) },
    access: 'admin',
    summary: 'The mail outbox, newest first: to, subject, status, attempts, last error (never bodies)',
    async handler(_input, _ctx, { db }) {
      return listOutbox(db);
    },
  }),
];
