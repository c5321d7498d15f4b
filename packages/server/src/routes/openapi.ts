import { openApiDocument, openApiDocumentAnswer, OPENAPI_PATH } from '../openapi.js';
import { route, type RouteSpec } from './route.js';

/** GET /openapi.json: the document of every route in `routes()` (made once, on first use). */
export function openApiRoute(routes: () => readonly RouteSpec[]): RouteSpec {
  let document: ReturnType<typeof openApiDocument> | undefined;
  return route({
    method: 'GET',
    path: OPENAPI_PATH,
    response: { schema: openApiDocumentAnswer },
    access: 'public',
    summary: 'This API as an OpenAPI 3.1 document (a readable page at /api/docs)',
    async handler(_input, ctx) {
      document ??= openApiDocument(routes());
      ctx.set('Cache-Control', 'no-cache');
      return document;
    },
  });
}
