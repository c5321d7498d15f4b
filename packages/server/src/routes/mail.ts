import { listOutbox } from '../services/outbox.js';
import { route, type RouteSpec } from './route.js';

export const mailRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/mail',
    access: 'admin',
    summary: 'The mail outbox, newest first: to, subject, status, attempts, last error (never bodies)',
    async handler(_input, _ctx, { db }) {
      return listOutbox(db);
    },
  }),
];
