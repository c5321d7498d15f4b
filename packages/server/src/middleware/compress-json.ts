/**
 * Compresses JSON answers larger than 1 KB (brotli or gzip, by Accept-Encoding). Forward auth's
 * /verify is never compressed: proxies read its headers, and its bodies are tiny (docs/operations.md).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context, Next } from 'koa';
import { preferredEncoding } from '../accept-encoding.js';

export const COMPRESS_THRESHOLD = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
// Quality 4 compresses a JSON page about as well as gzip -6 at a fraction of brotli's default cost.
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

function isPlainJson(body: unknown): boolean {
  return body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Uint8Array) && typeof (body as { pipe?: unknown }).pipe !== 'function';
}

export function compressJson(isExcluded: (ctx: Context) => boolean) {
  return async function compressJsonAnswer(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.method === 'HEAD' || !isPlainJson(ctx.body) || isExcluded(ctx) || ctx.response.get('Content-Encoding')) return;
    ctx.vary('Accept-Encoding');
    const text = JSON.stringify(ctx.body);
    const encoding = Buffer.byteLength(text) > COMPRESS_THRESHOLD ? preferredEncoding(ctx.get('Accept-Encoding'), ['br', 'gzip', 'identity']) : 'identity';
    const type = ctx.response.get('Content-Type') || 'application/json; charset=utf-8';
    const status = ctx.status;
    // The text made here is the body either way: Koa would otherwise stringify it again.
    if (encoding === 'br' || encoding === 'gzip') {
      ctx.body = encoding === 'br' ? await brotli(text, BROTLI_OPTIONS) : await gzip(text);
      ctx.set('Content-Encoding', encoding);
    } else {
      ctx.body = text;
    }
    ctx.status = status;
    ctx.type = type;
  };
}
