import { Readable } from 'node:stream';
import { checkCountLimit, checkLogFilter, LOG_COUNT_MAX_LIMIT, logCountAnswer, logEntryAnswer, logPage, z } from '@tools-portal/core';
import { encodedOnce } from '../encoded-json.js';
import { EXPORT_TYPES, exportLog } from '../services/log/log-export.js';
import { countEvents, listEvents } from '../services/log/log-query.js';
import { route, type RouteSpec } from './route.js';

// The filters: documented by these fields, checked by core's checkLogFilter, which also refuses
// parameters that are no filter. A query value is a list only when given more than once.
const filterField = (description: string) => z.string({ error: 'must be given once' }).optional().describe(description);
const logFilterParameters = z.looseObject({
  user: filterField('the user the event is about: an exact email or name, any case'),
  client: filterField('the client the event is about: an exact name, any case'),
  actor: filterField('who did it: an exact email, any case'),
  type: filterField('a type (login.failure) or a prefix ending in . (login.)'),
  q: filterField('a piece of the event text, any case'),
  from: filterField("ISO 8601 date (the day's start, UTC) or date and time"),
  to: filterField("ISO 8601 date (up to the day's end, UTC) or date and time, inclusive"),
});

// checkLogFilter and checkCountLimit throw core's invalid_input naming the parameter; zod lets
// what a transform throws through, so the router answers it as it is.
const logQuery = logFilterParameters.transform((query) => ({ filter: checkLogFilter(query) }));
const countQuery = logFilterParameters
  .extend({
    max: z
      .string({ error: `must be a whole number from 1 to ${LOG_COUNT_MAX_LIMIT}` })
      .optional()
      .describe(`count at most this many (1 to ${LOG_COUNT_MAX_LIMIT}): total is then the smaller of the matches and max`),
  })
  .transform((query) => ({ filter: checkLogFilter(query, ['max']), max: checkCountLimit(query.max) }));
const exportQuery = logFilterParameters
  .extend({ format: z.enum(['csv', 'jsonl'], { error: 'must be csv or jsonl' }).optional().describe('csv (the default) or jsonl') })
  .transform((query) => ({ filter: checkLogFilter(query, ['format']), format: query.format ?? 'csv' }));

export const logRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/log/count',
    access: 'admin',
    summary: 'How many entries the filters (user, client, actor, type, q, from, to) match: {total}; with max, at most max',
    query: countQuery,
    response: { schema: logCountAnswer },
    async handler({ query }, _ctx, { db }) {
      return { total: await countEvents(db, query.filter, query.max) };
    },
  }),
  route({
    method: 'GET',
    path: '/log/export',
    access: 'admin',
    summary: 'Every entry the filters match, newest first, streamed as CSV (?format=csv, the default) or JSON Lines (?format=jsonl)',
    query: exportQuery,
    response: { content: ['text/csv', 'application/x-ndjson'], description: 'the entries, streamed' },
    async handler({ query: { filter, format } }, ctx, { db }) {
      const day = new Date().toISOString().slice(0, 10);
      ctx.set('content-disposition', `attachment; filename="event-log-${day}.${EXPORT_TYPES[format].extension}"`);
      ctx.set('cache-control', 'no-store');
      ctx.type = EXPORT_TYPES[format].contentType;
      return Readable.from(exportLog(db, filter, format), { objectMode: false, highWaterMark: 64 * 1024 });
    },
  }),
  route({
    method: 'GET',
    path: '/log/:currentPage/:perPage',
    response: { schema: z.array(logEntryAnswer) },
    access: 'admin',
    summary:
      'A page of the event log, newest first; pages count from 1, perPage at most 100; filters as query parameters (user, client, actor, type, q, from, to)',
    params: logPage,
    query: logQuery,
    async handler({ params, query }, _ctx, { db }) {
      // Remembered until the database changes: encoded (and compressed) once.
      return encodedOnce(await listEvents(db, query.filter, { page: params.currentPage, perPage: params.perPage }));
    },
  }),
];
