import { beforeAll, describe, expect, it } from 'vitest';
import { unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();
let auth: Record<string, string>;
beforeAll(() => {
  auth = { authorization: `Bearer ${portal.admin.token}` };
});

const post = (path: string, body: string, headers: Record<string, string>) =>
  portal.fetch(`/api/auth/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('hostile bodies', () => {
  it('answers 400 for malformed JSON', async () => {
    for (const body of ['{bad', '[1,', '"unterminated', '{"name":}']) {
      const response = await post('/client/', body, auth);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toEqual({ error: { code: 'invalid_input', message: 'body: is not valid JSON', details: { field: 'body' } } });
    }
  });

  it('answers 400 for JSON that is not an object', async () => {
    for (const body of ['[]', '42', 'null', '"name"']) {
      const response = await post('/client/', body, auth);
      expect(response.status, body).toBe(400);
    }
  });

  it('answers 413 for a body over 1 MB', async () => {
    const response = await post('/client/', JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }), auth);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('ignores fields a schema does not name', async () => {
    const response = await post('/app/', JSON.stringify({ name: unique('app'), url: 'https://a.example.com/', id: 999, created_at: 1 }), auth);
    expect(response.status).toBe(201);
    expect(((await response.json()) as { id: number }).id).not.toBe(999);
  });

  it('answers unknown API paths and methods with JSON errors', async () => {
    const unknown = await portal.fetch('/api/auth/v1/nothing-here', { headers: auth });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const method = await portal.fetch('/api/auth/v1/log/1/20', { method: 'DELETE', headers: auth });
    expect(method.status).toBeLessThan(500);
  });
});

describe('concurrency', () => {
  it('lets exactly one of 20 parallel client creations with one name succeed', async () => {
    const name = unique('race');
    const responses = await Promise.all(Array.from({ length: 20 }, () => post('/client/', JSON.stringify({ name }), auth)));
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    expect((await portal.admin.clients.list()).filter((client) => client.name === name)).toHaveLength(1);
    const events = (await portal.admin.logs.page(1, 100)).filter((entry) => entry.event === `created client ${name}`);
    expect(events).toHaveLength(1);
  });
});

describe('portal routes', () => {
  it('redirects / to the portal and serves it at /auth/', async () => {
    const root = await portal.fetch('/', { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/auth/');
    const page = await portal.fetch('/auth/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Tools-Server</title>');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses path traversal out of the web root', async () => {
    for (const path of ['/auth/../package.json', '/auth/%2e%2e/%2e%2e/package.json', '/auth/..%2F..%2Fpackage.json']) {
      const response = await portal.fetch(path);
      expect(response.status, path).toBe(404);
    }
  });
});
