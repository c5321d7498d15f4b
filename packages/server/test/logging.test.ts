/**
 * Logging that does not stall (docs/performance.md, Logging; docs/operations.md): forward auth's
 * successful answers are access lines at `debug`, its refusals at `info`; lines go to stdout
 * buffered and asynchronously, and none is lost when the process ends on SIGTERM or on a fatal
 * error (a real server process, its stdout a pipe this test drains).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PortalClient } from '@tools-portal/core';
import { createLogger } from '@tools-portal/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from './support/database.js';
import { spawnServer, type ServerProcess } from './support/processes.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createApp, useTestPortal, unique } from './support/support.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('request lines of forward auth', () => {
  const lines: string[] = [];
  const portal = useTestPortal({ LOG_LEVEL: 'info' }, { logger: createLogger('info', { format: 'json', write: (line) => lines.push(line) }) });
  const debugLines: string[] = [];
  const debugPortal = useTestPortal({ LOG_LEVEL: 'debug' }, { logger: createLogger('debug', { format: 'json', write: (line) => debugLines.push(line) }) });
  const requestLines = (from: string[], id: string) =>
    from.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.msg === 'request' && entry.reqId === id);

  it('writes no line at info for a successful /verify, one at debug', async () => {
    for (const [running, from, expected] of [
      [portal, lines, []],
      [debugPortal, debugLines, [20]],
    ] as const) {
      const app = await createApp(running.admin);
      const response = await running.fetch(`/api/auth/v1/verify?app=${app.name}`, { headers: { authorization: `Bearer ${running.admin.token}` } });
      expect(response.status).toBe(200);
      const id = response.headers.get('x-request-id') ?? '';
      expect(requestLines(from, id).map((entry) => entry.level)).toEqual(expected);
    }
  });

  it('writes one line at info for a refusal: not signed in, not allowed', async () => {
    const app = await createApp(portal.admin);
    const { token } = await portal.createUser();
    const cases: [string, Record<string, string>, number][] = [
      [`/api/auth/v1/verify?app=${app.name}`, {}, 401],
      [`/api/auth/v1/verify?app=${app.name}`, { authorization: `Bearer ${token}` }, 403],
    ];
    for (const [path, headers, status] of cases) {
      const response = await portal.fetch(path, { headers, redirect: 'manual' });
      expect(response.status, path).toBe(status);
      const id = response.headers.get('x-request-id') ?? '';
      expect(requestLines(lines, id).map((entry) => [entry.level, entry.status])).toEqual([[30, status]]);
    }
  });
});

describe('fields that may hold secrets', () => {
  it("are censored down to the third level, in details, errors and a child's fields, leaving the caller's objects as they were", () => {
    const out: string[] = [];
    const logger = createLogger('info', { format: 'json', write: (line) => out.push(line) });
    const detail = {
      password: 'p1',
      ok: 'visible',
      nested: { token: 't1', deeper: { cookie: 'c1', fine: 2 } },
      headers: { authorization: 'a1', accept: 'text/html' },
      req: { headers: { cookie: 'c2' } },
      list: [{ secret: 's1' }],
    };
    const before = JSON.stringify(detail);
    logger.info('with secrets', detail);
    const error = Object.assign(new Error('it broke'), { apiKey: 'k1' });
    logger.error('failed', error);
    logger.child({ reqId: 'r-1', accesstoken: 'x1' }).warn('child');
    logger.info('plain', { reqId: 'r-2', status: 200 });
    expect(JSON.stringify(detail)).toBe(before);
    const [first, second, third, fourth] = out.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({
      password: '[redacted]',
      ok: 'visible',
      nested: { token: '[redacted]', deeper: { cookie: '[redacted]', fine: 2 } },
      headers: { authorization: '[redacted]', accept: 'text/html' },
      req: { headers: { cookie: '[redacted]' } },
      list: [{ secret: '[redacted]' }],
    });
    expect(second!.err).toMatchObject({ message: 'it broke', apiKey: '[redacted]' });
    expect((second!.err as { stack?: string }).stack).toMatch(/it broke\n\s+at /);
    expect(third).toMatchObject({ reqId: 'r-1', accesstoken: '[redacted]', msg: 'child' });
    expect(fourth).toMatchObject({ reqId: 'r-2', status: 200, msg: 'plain' });
    for (const secret of ['p1', 't1', 'c1', 'a1', 'c2', 's1', 'k1', 'x1']) expect(out.join('\n')).not.toContain(`"${secret}"`);
  });
});

/** GET requests on a few kept-alive connections; answers each request's id. */
async function requestIds(base: string, pathname: string, token: string, count: number): Promise<string[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const one = () =>
    new Promise<string>((resolve, reject) => {
      const request = http.get(`${base}${pathname}`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200 ? resolve(String(response.headers['x-request-id'])) : reject(new Error(`status ${response.statusCode}`)),
        );
      });
      request.on('error', reject);
    });
  const ids: string[] = [];
  for (let done = 0; done < count; done += 50) ids.push(...(await Promise.all(Array.from({ length: Math.min(50, count - done) }, one))));
  agent.destroy();
  return ids;
}

/** The request ids of the request lines a process wrote, each with its level. */
function loggedRequests(output: string): Map<string, number> {
  const logged = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { msg?: string; reqId?: string; level?: number };
    if (entry.msg === 'request' && entry.reqId) logged.set(entry.reqId, entry.level ?? 0);
  }
  return logged;
}

// One database is enough: this is about the process's stdout, not the data.
describe.skipIf(testDialect() === 'postgres')('nothing logged is lost when the process ends', () => {
  let dir: string;
  const started: ServerProcess[] = [];
  // A bug for the test to set off: a throw no handler catches, as a real one would be.
  const BUG = `data:text/javascript,process.on('SIGUSR2', () => { throw new Error('injected bug'); });`;

  beforeAll(() => {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-logging-'));
  }, 120_000);
  afterAll(async () => {
    for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) await server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function start(name: string, nodeArgs: string[] = []) {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, `${name}.db`)}`, ADMIN_EMAIL, ADMIN_PASSWORD, WEB_ROOT: '', LOG_LEVEL: 'debug', LOG_FORMAT: 'json' };
    const server = await spawnServer(env, 30_000, { nodeArgs });
    started.push(server);
    const anonymous = new PortalClient({ baseUrl: server.url });
    const token = (await anonymous.auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD })).accesstoken;
    const app = await createApp(new PortalClient({ baseUrl: server.url, token }), { name: unique('logapp') });
    return { server, verify: `/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, token };
  }

  const exitOf = (server: ServerProcess) =>
    new Promise<number | null>((resolve) =>
      server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once('exit', (code) => resolve(code)),
    );

  it('writes every line of 3,000 requests at debug before exiting on SIGTERM', async () => {
    const { server, verify, token } = await start('sigterm');
    const ids = await requestIds(server.url, verify, token, 3000);
    expect(await server.stop()).toBe(0);
    const logged = loggedRequests(server.output());
    expect(ids.filter((id) => logged.get(id) !== 20)).toEqual([]);
    expect(server.output()).toMatch(/"msg":"SIGTERM: shutting down"/);
  }, 60_000);

  it('writes every line of 3,000 requests, and the error, before exiting on a fatal error', async () => {
    const { server, verify, token } = await start('fatal', ['--import', BUG]);
    const ids = await requestIds(server.url, verify, token, 3000);
    const exited = exitOf(server);
    server.child.kill('SIGUSR2');
    expect(await exited).toBe(1);
    const logged = loggedRequests(server.output());
    expect(ids.filter((id) => logged.get(id) !== 20)).toEqual([]);
    const fatal = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"fatal: uncaught exception; exiting"'))
      .map((line) => JSON.parse(line) as { level: number; err?: { message?: string } });
    expect(fatal.map((entry) => [entry.level, entry.err?.message])).toEqual([[50, 'injected bug']]);
  }, 60_000);

  it('drops lines instead of growing without bound while the reader of stdout stalls, and says how many once it catches up', async () => {
    const logger = path.join(ROOT, 'packages/server/dist/logger.js');
    const script = `
      const { createLogger } = await import(${JSON.stringify(logger)});
      const logger = createLogger('info', { format: 'json', bufferLimit: 64 * 1024 });
      for (let i = 0; i < 20000; i++) logger.info('filler', { i, text: 'x'.repeat(100) });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      logger.info('after the stall');
      await logger.flush();`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    // Nobody reads for a while: the pipe fills, then the logger's buffer.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 800));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.resume();
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    const entries = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; dropped?: number });
    const fillers = entries.filter((entry) => entry.msg === 'filler').length;
    const warnings = entries.filter((entry) => entry.msg === 'log lines dropped: the reader of standard output did not keep up');
    expect(fillers).toBeLessThan(5000);
    expect(warnings).toHaveLength(1);
    expect(fillers + (warnings[0].dropped ?? 0)).toBe(20000);
    expect(entries.at(-1)?.msg).toBe('after the stall');
  }, 30_000);
});
