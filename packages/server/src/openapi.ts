/**
 * The OpenAPI 3.1 document of the REST API, generated from the route table (routes/index.ts) and
 * core's zod schemas (zod 4's JSON Schema output): every route with its path parameters, request
 * body, success answer, error answers and security. GET /api/auth/v1/openapi.json serves it, and
 * the API tests check every answer they receive against it (docs/operations.md).
 */
import { answerSchemas, API_PREFIX, z, type Access } from '@tools-portal/core';
import { isRaw, STRING_PARAMETERS, type RouteSpec } from './routes/route.js';

type JsonSchema = Record<string, unknown>;
type Document = z.infer<typeof openApiDocumentAnswer>;

export const OPENAPI_PATH = '/openapi.json';

const record = z.record(z.string(), z.unknown());
/** The answer of GET /openapi.json: the document's parts; what is inside each is OpenAPI's. */
export const openApiDocumentAnswer = z.strictObject({
  openapi: z.string(),
  info: record,
  jsonSchemaDialect: z.string(),
  servers: z.array(record),
  paths: z.record(z.string(), record),
  components: record,
});

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

/** The answer schema as a reference to its component when it is one of core's named answers. */
function answerSchema(schema: z.ZodType, names: Map<z.ZodType, string>): JsonSchema {
  const name = names.get(schema);
  if (name) return { $ref: `#/components/schemas/${name}` };
  // An array of a named answer (most list calls).
  const element = schema instanceof z.ZodArray ? (schema.element as z.ZodType) : undefined;
  const elementName = element && names.get(element);
  if (elementName) return { type: 'array', items: { $ref: `#/components/schemas/${elementName}` } };
  return jsonSchema(schema, 'output');
}

/** `/app/:appid/user/:userid` → `/app/{appid}/user/{userid}`, with the parameter names. */
function openApiPath(path: string): { path: string; parameters: string[] } {
  const parameters: string[] = [];
  const converted = path.replace(/:(\w+)/g, (_match, name: string) => {
    parameters.push(name);
    return `{${name}}`;
  });
  return { path: converted, parameters };
}

function errorAnswers(access: Access, hasBody: boolean, hasParameters: boolean): Record<string, unknown> {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_REF } } });
  const answers: Record<string, unknown> = {};
  answers['400'] = error('invalid_input: a field, parameter or the body is invalid (details.field names it)');
  if (access !== 'public') answers['401'] = error('unauthenticated: no valid session or API key');
  if (access === 'admin') answers['403'] = error('forbidden: admins only');
  if (access === 'owner') answers['403'] = error("forbidden: admins and the app's owners only");
  if (hasParameters) answers['404'] = error('not_found: no such object');
  if (hasBody) answers['409'] = error('conflict: the change clashes with what exists');
  if (hasBody) answers['413'] = error('payload_too_large: body over 1 MB');
  answers['429'] = error('too_many_requests');
  answers['503'] = error('unavailable: the database cannot be reached; retry');
  answers['500'] = error('internal: details.requestId names the log line');
  answers.default = error('any other error, same shape');
  return answers;
}

const SECURED = [{ cookieAuth: [] }, { bearerAuth: [] }];

function operation(route: RouteSpec, parameters: string[], names: Map<z.ZodType, string>): Record<string, unknown> {
  const status = String(route.response.status ?? 200);
  const success: Record<string, unknown> = { description: route.response.description ?? (status === '204' ? 'done, no body' : 'success') };
  if (route.response.schema) success.content = { 'application/json': { schema: answerSchema(route.response.schema, names) } };
  else if (route.response.content)
    success.content = Object.fromEntries(route.response.content.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]));
  const op: Record<string, unknown> = {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.path)
      .path.replace(/[{}]/g, '')
      .replace(/\/(\w)/g, (_m, c: string) => c.toUpperCase())}`,
    summary: route.summary,
    'x-access': route.access,
    security: route.access === 'public' ? [{}, ...SECURED] : SECURED,
    responses: { [status]: success, ...errorAnswers(route.access, route.body !== undefined, parameters.length > 0) },
  };
  const query = route.query ? (jsonSchema(route.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] }) : undefined;
  const queryParameters = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema,
  }));
  if (parameters.length > 0 || queryParameters.length > 0) {
    op.parameters = [
      ...parameters.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: (STRING_PARAMETERS as readonly string[]).includes(name) ? { type: 'string' } : { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
      })),
      ...queryParameters,
    ];
  }
  if (route.body && isRaw(route.body)) {
    const content = Object.fromEntries(route.body.contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]));
    op.requestBody = { required: true, description: `not JSON: the bytes, at most ${Math.round(route.body.limit / 1024)} KB`, content };
  } else if (route.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
  }
  return op;
}

export function openApiDocument(routes: readonly RouteSpec[], options: { serverUrl?: string } = {}): Document {
  const names = new Map<z.ZodType, string>(Object.entries(answerSchemas).map(([name, schema]) => [schema as z.ZodType, name]));
  const paths: Document['paths'] = {};
  for (const route of routes) {
    const { path, parameters } = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route, parameters, names);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tools-Portal REST API',
      version: '1',
      description: 'Every path also answers with a trailing slash. Errors are `{"error": {"code", "message", "details"}}`. See docs/api.md.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: `${options.serverUrl ?? ''}${API_PREFIX}` }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(answerSchemas).map(([name, schema]) => [name, jsonSchema(schema as z.ZodType, 'output')])),
      securitySchemes: {
        cookieAuth: { type: 'apiKey', in: 'cookie', name: 'accesstoken', description: 'the session cookie the web portal uses' },
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'a session token (from /validatepassword) or an API key' },
      },
    },
  };
}
