import { listOutbox } from '../services/outbox.js';
import type { RouteSpec } from './route.js';

export const mailRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/mail',
    access: 'admin',
    summary: 'The mail outbox, newest first: to, subject, status, attempts, last error (never bodies)',
    async handler(ctx, { db }) {
      ctx.body = await listOutbox(db);
    },
  },
];
