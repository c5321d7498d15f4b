import { parse, logPage, logEntryAnswer, z } from '@tools-portal/core';
import { listEvents } from '../services/audit.js';
import type { RouteSpec } from './route.js';

export const logRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/log/:currentPage/:perPage',
    response: { schema: z.array(logEntryAnswer) },
    access: 'admin',
    summary: 'A page of the event log, newest first; pages count from 1, perPage at most 100',
    async handler(ctx, { db }) {
      const { currentPage, perPage } = parse(logPage, ctx.params);
      ctx.body = await listEvents(db, currentPage, perPage);
    },
  },
];
