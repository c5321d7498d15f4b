/**
 * Idle keep-alive connections stay open longer than a proxy keeps its idle upstream connections
 * (docs/deployment.md: nginx's `keepalive`, 60 s), so the proxy closes them, never the portal
 * while the proxy sends (server.ts, KEEP_ALIVE_MS).
 */
import net from 'node:net';
import { KEEP_ALIVE_MS } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { testDialect } from './support/database.js';
import { useTestPortal } from './support/support.js';

const portal = useTestPortal();

/** Sends raw requests on one connection; answers the status line of each answer, or why none came. */
function connection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (buffer += chunk.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  return {
    async request(): Promise<string> {
      buffer = '';
      if (closed) return 'closed';
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      for (let waited = 0; waited < 5000 && !buffer.includes('\r\n\r\n') && !closed; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      return buffer.split('\r\n')[0] || (closed ? 'closed' : 'no answer');
    },
    end: () => socket.destroy(),
  };
}

// The database plays no part: once is enough.
describe.runIf(testDialect() === 'sqlite')('keep-alive connections', () => {
  it('stay open longer than a proxy keeps its idle ones: a request after 6 idle seconds is answered on the same connection', async () => {
    expect(portal.server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    const client = connection(Number(new URL(portal.url).port));
    try {
      expect(await client.request()).toBe('HTTP/1.1 200 OK');
      // Node's default (5 s) closes the connection by now.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      expect(await client.request()).toBe('HTTP/1.1 200 OK');
    } finally {
      client.end();
    }
  });
});
