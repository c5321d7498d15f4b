/**
 * GET /api/auth/v1/openapi.json: a valid OpenAPI 3.1 document naming every declared route, and
 * the readable page at /api/docs under a CSP of its own. (Every answer of the API suite is checked
 * against the document by the shared test client: openapi-check.ts.)
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { API_PREFIX } from '@tools-portal/core';
import { apiRoutes } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { checkAnswer, violations } from './openapi-check.js';
import { useTestPortal } from './support.js';

const portal = useTestPortal();

type Document = { openapi: string; paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown>; requestBody?: unknown; parameters?: { name: string; in: string }[] }>> };

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
      expect(Object.keys(operation!.responses)).toContain(route.response ? String(route.response.status ?? 200) : '2XX');
      expect(operation!.responses.default).toBeDefined();
      expect(operation!.security).toContainEqual({ bearerAuth: [] });
      expect(operation!.security).toContainEqual({ cookieAuth: [] });
      if (route.access !== 'public') expect(operation!.security).not.toContainEqual({});
    }
    const count = Object.values(paths).reduce((sum, operations) => sum + Object.keys(operations).length, 0);
    expect(count).toBe(apiRoutes.length);
  });

  it('describes request bodies from core\'s schemas', async () => {
    const { paths } = await fetchDocument();
    const body = paths['/app']!.post!.requestBody as { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } };
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
    await checkAnswer('GET', `${portal.url}${API_PREFIX}/app/`, json([{ id: 1, name: 'wiki', url: 'https://wiki.example.com/', description: '', doclink: '' }]));
    expect(violations).toHaveLength(before);
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
