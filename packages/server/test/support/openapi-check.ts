/**
 * Checks answers of the API against the OpenAPI document (ajv, JSON Schema 2020-12): the shared
 * test client (support.ts) passes every answer it receives through `checkAnswer`, so the document
 * cannot drift from the code. Violations are collected; useTestPortal fails the file on any.
 */
import { API_PREFIX } from '@tools-portal/core';
import { apiRoutes, openApiDocument } from '@tools-portal/server';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Schema = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const document = openApiDocument(apiRoutes);
const components = (document.components as { schemas: Record<string, Schema> }).schemas;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormatsModule as unknown as (ajv: Ajv2020) => void)(ajv);

// The components are added once, as a schema of their own that each answer's schema refers to:
// a copy of them in every schema made each compilation cost milliseconds.
const COMPONENTS_ID = 'openapi-components';
const COMPONENT_REF = '#/components/schemas/';
ajv.addSchema(JSON.parse(JSON.stringify({ $id: COMPONENTS_ID, $defs: components }).replaceAll(COMPONENT_REF, '#/$defs/')) as Schema);

// By the schema's text: many answers share one (every error is an Error).
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: Schema): ValidateFunction {
  const text = JSON.stringify(schema).replaceAll(COMPONENT_REF, `${COMPONENTS_ID}#/$defs/`);
  let validate = compiled.get(text);
  if (!validate) {
    validate = ajv.compile(JSON.parse(text) as Schema);
    compiled.set(text, validate);
  }
  return validate;
}

const templates = Object.entries(document.paths).map(([template, operations]) => ({
  pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+').replace(/[.]/g, '\\.')}/?$`),
  template,
  operations: operations as Record<string, Operation>,
}));

export const violations: string[] = [];

/** Checks one answer; its body is read from a clone. */
export async function checkAnswer(method: string, url: string, response: Response): Promise<void> {
  const { pathname } = new URL(url);
  if (!pathname.startsWith(`${API_PREFIX}/`) || method === 'HEAD' || method === 'OPTIONS') return;
  const below = pathname.slice(API_PREFIX.length);
  const found = templates.find((entry) => entry.pattern.test(below) && entry.operations[method.toLowerCase()]);
  const operation = found?.operations[method.toLowerCase()];
  const status = response.status;
  if (status >= 300 && status < 400) return;
  const declared =
    operation?.responses[String(status)] ??
    operation?.responses[`${String(status)[0]}XX`] ??
    (status >= 400 ? (operation?.responses.default ?? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }) : undefined);
  const where = `${method} ${pathname} → ${status}`;
  if (!declared) {
    violations.push(`${where}: status not declared for ${found?.template ?? '(no such path)'}`);
    return;
  }
  const schema = declared.content?.['application/json']?.schema;
  // A body that is not JSON (an icon, an export): its declared content types.
  const types = Object.keys(declared.content ?? {}).filter((type) => type !== 'application/json');
  if (!schema && types.length > 0) {
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!types.includes(type)) violations.push(`${where}: content type ${type} is not one of ${types.join(', ')}`);
    return;
  }
  const text = await response.clone().text();
  if (!schema) {
    if (text !== '') violations.push(`${where}: a body where none is declared`);
    return;
  }
  if (!(response.headers.get('content-type') ?? '').startsWith('application/json')) {
    violations.push(`${where}: not JSON (${response.headers.get('content-type')})`);
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    violations.push(`${where}: body is not valid JSON`);
    return;
  }
  const validate = validatorFor(schema);
  if (!validate(body)) violations.push(`${where}: ${ajv.errorsText(validate.errors)}`);
}

/** A fetch that checks what it receives. */
export function checkingFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await base(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    await checkAnswer((init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(), url, response);
    return response;
  }) as typeof fetch;
}
