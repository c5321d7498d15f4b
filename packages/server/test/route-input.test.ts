/**
 * The router parses each route's declared input before its handler runs (routes/route.ts): path
 * ids (plain digits), the query and the JSON body, each refused with a 400 naming the parameter
 * or field, on every route that has them.
 */
import { API_PREFIX } from '@tools-portal/core';
import { apiRoutes } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { useTestPortal } from './support/support.js';

const portal = useTestPortal();

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; field?: string; message?: string }> {
  const response = await portal.fetch(`${API_PREFIX}${path}`, {
    method,
    headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const error = text ? (JSON.parse(text) as { error?: { message: string; details?: { field?: string } } }).error : undefined;
  return { status: response.status, field: error?.details?.field, message: error?.message };
}

describe('the router parses declared input', () => {
  it('refuses a path id that is not plain digits on every route, naming the parameter', async () => {
    const routes = apiRoutes.filter((route) => /:(?!token\b)\w+/.test(route.path) && !route.readsRequest);
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      for (const bad of names) {
        const path = route.path.replace(/:(\w+)/g, (_match, name: string) => (name === bad ? '1x' : '1'));
        const answer = await send(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
        expect(answer, `${route.method} ${path}`).toMatchObject({ status: 400, field: bad, message: `${bad}: must be a positive integer` });
      }
    }
  });

  it('refuses a JSON body that does not match the declared schema on every route with one, naming the field', async () => {
    const routes = apiRoutes.filter((route) => route.body !== undefined && !('raw' in route.body));
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, (_match, name: string) => (name === 'token' ? 'apikey-x' : '1'));
      const answer = await send(route.method, path, []);
      expect(answer, `${route.method} ${path}`).toMatchObject({ status: 400, field: 'body', message: 'body: must be a JSON object' });
    }
  });

  it('refuses a bad query parameter, naming it', async () => {
    expect(await send('GET', '/log/count?max=0')).toMatchObject({ status: 400, field: 'max', message: 'max: must be a whole number from 1 to 1000000' });
    expect(await send('GET', '/log/1/10?user=a&user=b')).toMatchObject({ status: 400, field: 'user', message: 'user: must be given once' });
    expect(await send('GET', '/log/1/10?colour=red')).toMatchObject({ status: 400, field: 'colour' });
    expect(await send('GET', '/log/export?format=xml')).toMatchObject({ status: 400, field: 'format', message: 'format: must be csv or jsonl' });
    expect(await send('GET', '/log/1/101')).toMatchObject({ status: 400, field: 'perPage', message: 'perPage: must be at most 100' });
    expect((await send('GET', '/log/count?max=5&type=login.')).status).toBe(200);
  });
});
