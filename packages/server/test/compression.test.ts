/**
 * The web build served from memory by Accept-Encoding (brotli, gzip, identity) with ETag and 304;
 * JSON answers over 1 KB compressed; forward auth's /verify never.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, useTestPortal } from './support/support.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
const INDEX = '<!doctype html><html><head><title>Tools-Server</title></head><body>built</body></html>'.repeat(20);
const SCRIPT = 'export const greeting = "hello, portal";\n'.repeat(500);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 64 }, (_, i) => (i * 97) % 256)]);
fs.mkdirSync(path.join(root, 'assets'));
fs.writeFileSync(path.join(root, 'index.html'), INDEX);
fs.writeFileSync(path.join(root, 'assets/app-1a2b3c.js'), SCRIPT);
fs.writeFileSync(path.join(root, 'assets/logo.png'), PNG);
// What the web build writes beside its files; for the script only, so the other is compressed at start.
const PREBUILT_BR = zlib.brotliCompressSync(SCRIPT, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
fs.writeFileSync(path.join(root, 'assets/app-1a2b3c.js.br'), PREBUILT_BR);
fs.writeFileSync(path.join(root, 'assets/app-1a2b3c.js.gz'), zlib.gzipSync(SCRIPT, { level: 9 }));

const portal = useTestPortal({ WEB_ROOT: root });
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body arrives as sent (fetch would decompress it). */
function rawGet(pathname: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${portal.url}${pathname}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function decoded(raw: Raw): string {
  const encoding = raw.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(raw.body).toString();
  if (encoding === 'gzip') return zlib.gunzipSync(raw.body).toString();
  return raw.body.toString();
}

describe('the web build', () => {
  it('answers by Accept-Encoding: brotli, gzip, or as is', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip', 'gzip'],
      ['deflate', undefined],
      ['br;q=0, gzip;q=0', undefined],
      [undefined, undefined],
    ];
    for (const [accept, expected] of cases) {
      for (const pathname of ['/auth/', '/auth/index.html', '/auth/assets/app-1a2b3c.js']) {
        const raw = await rawGet(pathname, accept ? { 'accept-encoding': accept } : {});
        expect(raw.status, `${pathname} with ${accept}`).toBe(200);
        expect(raw.headers['content-encoding'], `${pathname} with ${accept}`).toBe(expected);
        expect(raw.headers.vary).toBe('Accept-Encoding');
        expect(decoded(raw)).toBe(pathname.endsWith('.js') ? SCRIPT : INDEX);
        expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
      }
    }
  });

  it("serves the build's own precompressed form, and compresses at start what has none", async () => {
    const script = await rawGet('/auth/assets/app-1a2b3c.js', { 'accept-encoding': 'br' });
    expect(script.body.equals(PREBUILT_BR)).toBe(true);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await rawGet('/auth/', { 'accept-encoding': 'br' });
    expect(index.headers['content-encoding']).toBe('br');
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body.length).toBeLessThan(INDEX.length / 4);
  });

  it('leaves images alone and keeps the .br and .gz files out of reach', async () => {
    const png = await rawGet('/auth/assets/logo.png', { 'accept-encoding': 'br, gzip' });
    expect(png.status).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.body.equals(PNG)).toBe(true);
    for (const sibling of ['/auth/assets/app-1a2b3c.js.br', '/auth/assets/app-1a2b3c.js.gz']) {
      expect((await rawGet(sibling)).status).toBe(404);
    }
  });

  it("answers 304 to an If-None-Match naming any encoding's ETag, 200 to another", async () => {
    const br = await rawGet('/auth/assets/app-1a2b3c.js', { 'accept-encoding': 'br' });
    const plain = await rawGet('/auth/assets/app-1a2b3c.js');
    expect(br.headers.etag).toMatch(/^"[^"]+"$/);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    for (const [etag, accept] of [
      [br.headers.etag!, 'br'],
      [plain.headers.etag!, 'br'],
      [`W/${br.headers.etag}`, 'gzip'],
      [`"other", ${plain.headers.etag}`, ''],
      ['*', 'br'],
    ]) {
      const again = await rawGet('/auth/assets/app-1a2b3c.js', { 'if-none-match': etag, 'accept-encoding': accept });
      expect(again.status, etag).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBeDefined();
    }
    const changed = await rawGet('/auth/assets/app-1a2b3c.js', { 'if-none-match': '"something-else"', 'accept-encoding': 'br' });
    expect(changed.status).toBe(200);
  });

  it('serves from memory: a file removed from disk after the start is still answered', async () => {
    const copy = path.join(root, 'index.html');
    fs.renameSync(copy, `${copy}.moved`);
    try {
      const raw = await rawGet('/auth/');
      expect(raw.status).toBe(200);
      expect(raw.body.toString()).toBe(INDEX);
    } finally {
      fs.renameSync(`${copy}.moved`, copy);
    }
  });

  it('does not serve paths outside the build', async () => {
    for (const pathname of ['/auth/../package.json', '/auth/%2e%2e/package.json', '/auth/assets/%00', '/auth/%E0%A4%A', '/auth/nothing.js']) {
      const raw = await rawGet(pathname);
      expect(raw.status, pathname).toBe(404);
    }
  });
});

describe('JSON answers', () => {
  it('are compressed over 1 KB, by Accept-Encoding, with Vary', async () => {
    for (let i = 0; i < 12; i++) await createApp(portal.admin, { description: `an app with a description long enough, größer ✓ ${i}` });
    const headers = { authorization: `Bearer ${portal.admin.token}` };
    const plain = await rawGet('/api/auth/v1/app', headers);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    // Sent as the encoded bytes (encoded-json.ts): still JSON, measured in bytes, not characters.
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(plain.body.toString('utf8')).toContain('größer ✓');
    for (const encoding of ['br', 'gzip']) {
      const raw = await rawGet('/api/auth/v1/app', { ...headers, 'accept-encoding': encoding });
      expect(raw.headers['content-encoding']).toBe(encoding);
      expect(raw.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(raw.headers.vary).toBe('Accept-Encoding');
      expect(JSON.parse(decoded(raw))).toEqual(JSON.parse(plain.body.toString()));
    }
  });

  it('are sent as is up to 1 KB', async () => {
    const raw = await rawGet('/api/auth/v1/user/me', { authorization: `Bearer ${portal.admin.token}`, 'accept-encoding': 'br, gzip' });
    expect(raw.status).toBe(200);
    expect(raw.body.length).toBeLessThanOrEqual(1024);
    expect(raw.headers['content-encoding']).toBeUndefined();
  });

  it("never compress forward auth's /verify, in any spelling", async () => {
    const app = await createApp(portal.admin);
    for (const pathname of ['/api/auth/v1/verify', '/api/auth/v1/verify/', '/api/auth/v1/Verify', '/api/auth/v1/VERIFY/']) {
      const auths: Record<string, string>[] = [{ authorization: `Bearer ${portal.admin.token}` }, {}];
      for (const auth of auths) {
        const raw = await rawGet(`${pathname}?app=${app.name}`, { ...auth, 'accept-encoding': 'br, gzip' });
        expect(raw.headers['content-encoding'], pathname).toBeUndefined();
        expect(raw.headers.vary ?? '', pathname).not.toMatch(/accept-encoding/i);
      }
    }
  });
});
