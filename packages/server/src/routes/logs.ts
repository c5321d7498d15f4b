import { Readable } from 'node:stream';
import { checkCountLimit, checkLogFilter, invalidInput, LOG_COUNT_MAX_LIMIT, logEntryAnswer, logPage, parse, z, type LogExportFormat } from '@tools-portal/core';
import { encodedOnce } from '../encoded-json.js';
import { EXPORT_TYPES, exportLog } from '../services/log-export.js';
import { countEvents, listEvents } from '../services/log-query.js';
import type { RouteSpec } from './route.js';

const exportFormat = (value: unknown): LogExportFormat => {
  if (value === undefined) return 'csv';
  if (value === 'csv' || value === 'jsonl') return value;
  throw invalidInput('format', 'must be csv or jsonl');
};

// The filters, for the OpenAPI document (core's checkLogFilter checks them).
const logFilterParameters = z.object({
  user: z.string().optional().describe('the user the event is about: an exact email or name, any case'),
  client: z.string().optional().describe('the client the event is about: an exact name, any case'),
  actor: z.string().optional().describe('who did it: an exact email, any case'),
  type: z.string().optional().describe('a type (login.failure) or a prefix ending in . (login.)'),
  q: z.string().optional().describe('a piece of the event text, any case'),
  from: z.string().optional().describe('ISO 8601 date (the day\'s start, UTC) or date and time'),
  to: z.string().optional().describe('ISO 8601 date (up to the day\'s end, UTC) or date and time, inclusive'),
});

export const logRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/log/count',
    access: 'admin',
    summary: 'How many entries the filters (user, client, actor, type, q, from, to) match: {total}; with max, at most max',
    query: logFilterParameters.extend({
      max: z.string().optional().describe(`count at most this many (1 to ${LOG_COUNT_MAX_LIMIT}): total is then the smaller of the matches and max`),
    }),
    async handler(ctx, { db }) {
      const filter = checkLogFilter(ctx.query, ['max']);
      ctx.body = { total: await countEvents(db, filter, checkCountLimit(ctx.query.max)) };
    },
  },
  {
    method: 'GET',
    path: '/log/export',
    access: 'admin',
    summary: 'Every entry the filters match, newest first, streamed as CSV (?format=csv, the default) or JSON Lines (?format=jsonl)',
    query: logFilterParameters.extend({ format: z.enum(['csv', 'jsonl']).optional().describe('csv (the default) or jsonl') }),
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
    query: logFilterParameters,
    async handler(ctx, { db }) {
      const { currentPage, perPage } = parse(logPage, ctx.params);
      // Remembered until the database changes: encoded (and compressed) once.
      ctx.body = encodedOnce(await listEvents(db, checkLogFilter(ctx.query), currentPage, perPage));
    },
  },
];
