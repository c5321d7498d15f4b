import { Readable } from 'node:stream';
import { checkLogFilter, invalidInput, logEntryAnswer, logPage, parse, z, type LogExportFormat } from '@tools-portal/core';
import { EXPORT_TYPES, exportLog } from '../services/log-export.js';
import { countEvents, listEvents } from '../services/log-query.js';
import type { RouteSpec } from './route.js';

const exportFormat = (value: unknown): LogExportFormat => {
  if (value === undefined) return 'csv';
  if (value === 'csv' || value === 'jsonl') return value;
  throw invalidInput('format', 'must be csv or jsonl');
};

export const logRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/log/count',
    access: 'admin',
    summary: 'How many entries the filters (user, client, actor, type, q, from, to) match: {total}',
    async handler(ctx, { db }) {
      ctx.body = { total: await countEvents(db, checkLogFilter(ctx.query)) };
    },
  },
  {
    method: 'GET',
    path: '/log/export',
    access: 'admin',
    summary: 'Every entry the filters match, newest first, streamed as CSV (?format=csv, the default) or JSON Lines (?format=jsonl)',
    async handler(ctx, { db }) {
      const filter = checkLogFilter(ctx.query, ['format']);
      const format = exportFormat(ctx.query.format);
      const day = new Date().toISOString().slice(0, 10);
      ctx.set('content-disposition', `attachment; filename="event-log-${day}.${EXPORT_TYPES[format].extension}"`);
      ctx.set('cache-control', 'no-store');
      ctx.type = EXPORT_TYPES[format].contentType;
      ctx.body = Readable.from(exportLog(db, filter, format), { objectMode: false, highWaterMark: 64 * 1024 });
    },
  },
  {
    method: 'GET',
    path: '/log/:currentPage/:perPage',
    response: { schema: z.array(logEntryAnswer) },
    access: 'admin',
    summary: 'A page of the event log, newest first; pages count from 1, perPage at most 100; filters as query parameters (user, client, actor, type, q, from, to)',
    async handler(ctx, { db }) {
      const { currentPage, perPage } = parse(logPage, ctx.params);
      ctx.body = await listEvents(db, checkLogFilter(ctx.query), currentPage, perPage);
    },
  },
];
