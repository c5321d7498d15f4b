/**
 * Logs (pino JSON lines, one per request with method, route template, status, duration and request
 * id; never a secret), X-Request-Id on every answer and in 500s, and GET /metrics.
 */
import { generateApiKey } from '@tools-portal/core';
import { createLogger, prettyLine } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApp, failure, startTestPortal, unique, useTestPortal } from './support/support.js';

const lines: string[] = [];
// Mail goes to a closed port: what is queued stays queued (retried after an hour), for the queue gauge.
const portal = useTestPortal(
  { LOG_LEVEL: 'debug', METRICS_TOKEN: 'metrics-token-0123456789', SMTP_URL: 'smtp://127.0.0.1:9', MAIL_RETRY_SECONDS: '3600' },
  { logger: createLogger('debug', { format: 'json', write: (line) => lines.push(line) }) },
);
const proxied = useTestPortal({ TRUST_PROXY: 'true' }, { logger: createLogger('info', { format: 'json', write: () => {} }) });

const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const requestLine = (id: string) => entries().find((entry) => entry.msg === 'request' && entry.reqId === id);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids and request log lines', () => {
  it('puts an X-Request-Id on every answer and logs one line per request with its route template', async () => {
    const app = await createApp(portal.admin);
    const bearer = { authorization: `Bearer ${portal.admin.token}` };
    // Forward auth's successful answers are access lines at debug (20); everything else at info (30).
    const cases: [string, RequestInit, string, number, number][] = [
      [`/api/auth/v1/app/${app.id}`, { headers: bearer }, '/api/auth/v1/app/:id', 200, 30],
      ['/api/auth/v1/app/999999', { headers: bearer }, '/api/auth/v1/app/:id', 404, 30],
      ['/api/auth/v1/user/me', {}, '/api/auth/v1/user/me', 401, 30],
      ['/api/auth/v1/nothing/here', {}, '(unmatched)', 404, 30],
      [`/api/auth/v1/verify?app=${app.name}`, { headers: bearer }, '/api/auth/v1/verify', 200, 20],
      [`/api/auth/v1/Verify?app=${app.name}`, {}, '/api/auth/v1/verify', 401, 30],
      ['/healthz', {}, '/healthz', 200, 30],
      ['/auth/', {}, '/auth/{*path}', 200, 30],
      ['/no/such/page', {}, '(unmatched)', 404, 30],
      ['/metrics', {}, '/metrics', 200, 30],
    ];
    for (const [path, init, route, status, level] of cases) {
      const response = await portal.fetch(path, { ...init, redirect: 'manual' });
      expect(response.status, path).toBe(status);
      const id = response.headers.get('x-request-id') ?? '';
      expect(id, path).toMatch(UUID);
      const line = requestLine(id);
      expect(line, path).toMatchObject({ level, msg: 'request', method: 'GET', route, status, reqId: id });
      expect(typeof line?.durationMs).toBe('number');
      expect(JSON.stringify(line)).not.toContain('?app=');
    }
  });

  it('takes the request id from the request only when TRUST_PROXY is on, and only a well-formed one', async () => {
    const sent = `proxy-${unique('id')}`;
    const direct = await portal.fetch('/healthz', { headers: { 'x-request-id': sent } });
    expect(direct.headers.get('x-request-id')).toMatch(UUID);
    for (const path of ['/healthz', '/api/auth/v1/verify?app=none', '/api/auth/v1/user/me']) {
      const behind = await proxied.fetch(path, { headers: { 'x-request-id': sent } });
      expect(behind.headers.get('x-request-id'), path).toBe(sent);
    }
    for (const forged of ['a b', 'x'.repeat(129), 'id"}{"level":60', 'semi;colon', '<script>', '']) {
      const behind = await proxied.fetch('/healthz', { headers: { 'x-request-id': forged } });
      expect(behind.headers.get('x-request-id'), forged).toMatch(UUID);
    }
  });

  it('names the request id in a 500 answer and in its log line, on the API and on /verify', async () => {
    const own: string[] = [];
    const broken = await startTestPortal({}, { logger: createLogger('info', { format: 'json', write: (line) => own.push(line) }) });
    try {
      await broken.deps.db.schema.renameTable('invites', 'invites_gone');
      await broken.deps.db.schema.renameTable('apps', 'apps_gone');
      const failing: [string, RequestInit][] = [
        ['/api/auth/v1/registrationtoken', { headers: { authorization: `Bearer ${broken.admin.token}` } }],
        ['/api/auth/v1/verify?app=wiki', { headers: { authorization: `Bearer ${broken.admin.token}` } }],
      ];
      for (const [path, init] of failing) {
        const response = await broken.fetch(path, init);
        expect(response.status, path).toBe(500);
        const id = response.headers.get('x-request-id');
        const body = (await response.json()) as { error: { code: string; details: { requestId?: string } } };
        expect(body.error.code).toBe('internal');
        expect(body.error.details.requestId).toBe(id);
        const logged = own.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.reqId === id);
        expect(logged.find((entry) => entry.level === 50)?.err, path).toBeDefined();
        expect(logged.find((entry) => entry.msg === 'request')?.status, path).toBe(500);
      }
    } finally {
      await broken.close();
    }
  });
});

describe('secrets in the logs', () => {
  it('never writes a password, session token, API key or cookie, even at debug level', async () => {
    const secrets: string[] = [ADMIN_PASSWORD, portal.admin.token!];
    const password = `secret-password-${unique('pw')}`;
    const { api, token, email } = await portal.createUser({ password });
    const key = generateApiKey();
    await api.accessTokens.create(key);
    await portal.client(key).users.me();
    const wrong = `wrong-password-${unique('pw')}`;
    await failure(portal.login(email, wrong));
    const fresh = await portal.login(email, password);
    secrets.push(password, token, key, wrong, fresh);
    const app = await createApp(portal.admin);
    const cookie = { cookie: `accesstoken=${fresh}; other=1` };
    await portal.fetch(`/api/auth/v1/verify?app=${app.name}`, { headers: cookie });
    await portal.fetch(`/api/auth/v1/Verify?app=${app.name}`, { headers: cookie });
    await portal.fetch('/api/auth/v1/user/me', { headers: cookie });
    await portal.fetch('/api/auth/v1/validatepassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: ADMIN_EMAIL, Password: wrong }),
    });
    await portal.fetch('/api/auth/v1/client/', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{broken',
    });
    await portal.fetch(`/api/auth/v1/verify?app=${app.name}&token=${key}`, { headers: { authorization: `Bearer ${key}` } });

    const logs = lines.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(logs.includes(secret), `logs hold ${secret.slice(0, 12)}…`).toBe(false);
  });
});

describe('log formats', () => {
  it('writes readable lines for a terminal', () => {
    const out: string[] = [];
    const logger = createLogger('info', { format: 'pretty', write: (line) => out.push(line) });
    logger.info('request', { reqId: 'r-1', method: 'GET', route: '/healthz', status: 200 });
    logger.error('it broke', new Error('boom'));
    logger.debug('not written');
    expect(out[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+ INFO request reqId=r-1 method=GET route=\/healthz status=200$/);
    expect(out[1]).toMatch(/ERROR it broke\nError: boom\n\s+at /);
    expect(out).toHaveLength(2);
    expect(prettyLine('not json')).toBe('not json');
  });
});

describe('GET /metrics', () => {
  const scrape = (headers: Record<string, string> = {}) => portal.fetch('/metrics', { headers });

  it('answers a loopback caller in the Prometheus format: requests, logins, forward auth, pool, process', async () => {
    await failure(portal.login(ADMIN_EMAIL, 'not-the-password'));
    await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    await portal.fetch('/api/auth/v1/verify?app=none');
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/auth\/v1\/app\/:id",status="200"\} \d+$/m);
    expect(text).toMatch(/^portal_logins_total\{outcome="success"\} [1-9]\d*$/m);
    expect(text).toMatch(/^portal_logins_total\{outcome="failure"\} [1-9]\d*$/m);
    expect(text).toMatch(/^portal_forward_auth_decisions_total\{decision="allow"\} [1-9]\d*$/m);
    expect(text).toMatch(/^portal_forward_auth_decisions_total\{decision="unauthenticated"\} [1-9]\d*$/m);
    expect(text).toMatch(/^portal_db_pool_connections_max \d+$/m);
    expect(text).toMatch(/^portal_db_pool_connections_used \d+$/m);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    const queued = Number(/^portal_mail_queue_length (\d+)$/m.exec(text)?.[1]);
    const client = await portal.admin.clients.create(unique('mailclient'));
    await portal.admin.invites.create({ email: `${unique('mailed')}@example.com`, clientid: client.id, apps: [], send: true });
    const after = await (await scrape()).text();
    expect(Number(/^portal_mail_queue_length (\d+)$/m.exec(after)?.[1])).toBe(queued + 1);
  });

  it('keeps one label per route template, whatever paths are scanned', async () => {
    for (let i = 0; i < 5; i++) await portal.fetch(`/scan-${unique('p')}`);
    const text = await (await scrape()).text();
    expect(text).not.toMatch(/scan-/);
    expect(text).toMatch(/route="\(unmatched\)",status="404"/);
  });

  it('is a 404 to a caller that came through a proxy, unless it presents METRICS_TOKEN', async () => {
    const proxied: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }, { 'x-forwarded-for': '127.0.0.1' }];
    for (const headers of proxied) {
      const refused = await scrape(headers);
      expect(refused.status).toBe(404);
      expect(await refused.text()).not.toMatch(/process_cpu/);
      expect((await scrape({ ...headers, authorization: 'Bearer metrics-token-0123456789' })).status).toBe(200);
      for (const wrong of ['Bearer metrics-token-012345678', 'Bearer ', `Bearer ${portal.admin.token}`, 'metrics-token-0123456789']) {
        expect((await scrape({ ...headers, authorization: wrong })).status, wrong).toBe(404);
      }
    }
  });

  it('is a 404 behind a proxy when no METRICS_TOKEN is set', async () => {
    expect((await proxied.fetch('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404);
    expect((await proxied.fetch('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9', authorization: 'Bearer ' } })).status).toBe(404);
  });
});
