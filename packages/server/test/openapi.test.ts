/**
 * GET /api/auth/v1/openapi.json: a valid OpenAPI 3.1 document naming every declared route, and
 * the readable page at /api/docs under a CSP of its own. (Every answer of the API suite is checked
 * against the document by the shared test client: support/openapi-check.ts.)
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { API_PREFIX } from '@tools-portal/core';
import { apiRoutes, type RouteSpec } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { checkAnswer, violations } from './support/openapi-check.js';
import { useTestPortal } from './support/support.js';

const portal = useTestPortal();

type Document = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { security: unknown[]; responses: Record<string, unknown>; requestBody?: unknown; parameters?: { name: string; in: string }[] }>
  >;
};

async function fetchDocument(): Promise<Document> {
  const response = await portal.fetch(`${API_PREFIX}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Document;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('has every declared route, with its parameters, body, answers and security', async () => {
    const { paths } = await fetchDocument();
    expect(apiRoutes.length).toBeGreaterThan(25);
    for (const route of apiRoutes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      expect(operation!.parameters?.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name) ?? []).toEqual(names);
      expect(Boolean(operation!.requestBody), `${route.method} ${route.path} body`).toBe(route.body !== undefined);
      expect(Object.keys(operation!.responses)).toContain(String(route.response.status ?? 200));
      expect(operation!.responses.default).toBeDefined();
      expect(operation!.security).toContainEqual({ bearerAuth: [] });
      expect(operation!.security).toContainEqual({ cookieAuth: [] });
      if (route.access !== 'public') expect(operation!.security).not.toContainEqual({});
    }
    const count = Object.values(paths).reduce((sum, operations) => sum + Object.keys(operations).length, 0);
    expect(count).toBe(apiRoutes.length);
  });

  it("describes request bodies from core's schemas", async () => {
    const { paths } = await fetchDocument();
    const body = paths['/app']!.post!.requestBody as {
      content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } };
    };
    const schema = body.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['description', 'doclink', 'name', 'url']));
    expect(schema.required.sort()).toEqual(['name', 'url']);
  });

  it('catches an answer that differs from it (the check the whole API suite runs)', async () => {
    const before = violations.length;
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    await checkAnswer('GET', `${portal.url}${API_PREFIX}/user/me`, json({ id: 'one', email: 'a@example.com' }));
    await checkAnswer('GET', `${portal.url}${API_PREFIX}/app/`, json([{ id: 1, name: 'wiki' }]));
    await checkAnswer('DELETE', `${portal.url}${API_PREFIX}/app/1`, json({ error: 'nope' }, 404));
    await checkAnswer('POST', `${portal.url}${API_PREFIX}/client`, json({ id: 1, name: 'Acme' }, 200));
    const caught = violations.splice(before);
    expect(caught).toHaveLength(4);
    const app = {
      id: 1,
      name: 'wiki',
      url: 'https://wiki.example.com/',
      description: '',
      descriptionDe: '',
      doclink: '',
      category: '',
      requestable: false,
      icon: null,
      roles: [],
      favourite: false,
    };
    await checkAnswer('GET', `${portal.url}${API_PREFIX}/app/`, json([app]));
    expect(violations).toHaveLength(before);
  });

  it('catches an answer with a field its schema lacks, or without one it declares (strict schemas)', async () => {
    const before = violations.length;
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const app = {
      id: 1,
      name: 'wiki',
      url: 'https://wiki.example.com/',
      description: '',
      descriptionDe: '',
      doclink: '',
      category: '',
      requestable: false,
      icon: null,
      roles: [],
      favourite: false,
    };
    const { category: _, ...withoutCategory } = app;
    await checkAnswer('GET', `${portal.url}${API_PREFIX}/app/`, json([{ ...app, secret: 'x' }]));
    await checkAnswer('GET', `${portal.url}${API_PREFIX}/app/`, json([withoutCategory]));
    await checkAnswer('POST', `${portal.url}${API_PREFIX}/client`, json({ id: 1, name: 'Acme', users: [] }, 201));
    await checkAnswer(
      'GET',
      `${portal.url}${API_PREFIX}/user/1`,
      json({ id: 1, email: 'a@example.com', name: 'A', client: { id: 1, name: 'Acme', admin: true } }),
    );
    await checkAnswer('GET', `${portal.url}${API_PREFIX}/loginoptions`, json({ google: false }));
    const caught = violations.splice(before);
    expect(caught, caught.join('\n')).toHaveLength(5);
    expect(caught[0]).toMatch(/additional properties/);
    expect(caught[1]).toMatch(/category/);
  });
});

/** What is wrong with a route's declared answer: none, or no schema where a JSON body is sent. */
function answerProblem(route: RouteSpec): string | undefined {
  const { response } = route;
  if (!response) return 'declares no answer';
  const kinds = [response.schema, response.content, response.status === 204 || response.empty ? true : undefined].filter((kind) => kind !== undefined);
  if (kinds.length !== 1) return 'must declare exactly one of: a JSON schema, non-JSON content types, no body (204 or empty)';
  return undefined;
}

/** Object schemas (with named properties) that allow fields they do not name. */
function openObjects(schema: unknown, where: string, found: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((item, index) => openObjects(item, `${where}[${index}]`, found));
  else if (schema && typeof schema === 'object') {
    const object = schema as Record<string, unknown>;
    if (object.properties && object.additionalProperties !== false) found.push(where);
    for (const [key, value] of Object.entries(object)) openObjects(value, `${where}.${key}`, found);
  }
  return found;
}

// Open by design, each for its reason (core's answers.ts): WebAuthn options are the library's W3C
// JSON, passed on as they are; error details carry what each error needs.
const OPEN_BY_DESIGN = ['WebAuthnOptions', 'Error.properties.error.properties.details'];

describe('every route declares its answer, strictly', () => {
  it('has a declared answer on every route, and the check fails for a route without one', () => {
    const problems = apiRoutes.map((route) => [`${route.method} ${route.path}`, answerProblem(route)]).filter(([, problem]) => problem);
    expect(problems).toEqual([]);
    const [some] = apiRoutes.filter((route) => route.response.schema);
    expect(answerProblem({ ...some!, response: { status: 200 } })).toBeDefined();
    expect(answerProblem({ ...some!, response: undefined } as unknown as RouteSpec)).toBeDefined();
  });

  it('has strict answer schemas: every object names all its fields (no unknown field passes)', async () => {
    const document = (await fetchDocument()) as Document & { components: { schemas: Record<string, unknown> } };
    const open = Object.entries(document.components.schemas).flatMap(([name, schema]) => openObjects(schema, name));
    expect(open.filter((where) => !OPEN_BY_DESIGN.some((allowed) => where.startsWith(allowed)))).toEqual([]);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (!status.startsWith('2')) continue;
          expect(openObjects(answer, `${method} ${path} ${status}`), 'inline answer schemas are strict').toEqual([]);
        }
      }
    }
    expect(openObjects({ properties: { a: {} } }, 'x')).toEqual(['x']);
  });
});

describe('the API page at /api/docs', () => {
  it('renders the document with Swagger UI served from here, under its own CSP', async () => {
    const redirect = await portal.fetch('/api/docs', { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('/api/docs/');
    const page = await portal.fetch('/api/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style|style=|https?:\/\//);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    for (const asset of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1])) {
      const response = await portal.fetch(asset);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(50);
    }
    const start = await (await portal.fetch('/api/docs/start.js')).text();
    expect(start).toContain(`${API_PREFIX}/openapi.json`);
  });

  it('leaves every other page under the strict CSP', async () => {
    for (const path of ['/auth/', `${API_PREFIX}/openapi.json`, '/api/docsx', '/api/docs/nothing.js']) {
      const csp = (await portal.fetch(path)).headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("style-src 'self';");
      expect(csp, path).not.toContain('unsafe-inline');
    }
  });
});
