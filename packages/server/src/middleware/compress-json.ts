/**
 * Sends JSON answers, compressed when larger than 1 KB (brotli or gzip, by Accept-Encoding).
 * Forward auth's /verify is never compressed: proxies read its headers, and its bodies are tiny
 * (docs/operations.md). A body already encoded (EncodedJson) is sent as it is, with the
 * compressed bytes it remembers.
 */
import type { Context, Next } from 'koa';
import { preferredEncoding } from '../accept-encoding.js';
import { EncodedJson } from '../encoded-json.js';

const COMPRESS_THRESHOLD = 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

function isPlainJson(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    !(body instanceof Uint8Array) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  );
}

export function compressJson(isExcluded: (ctx: Context) => boolean) {
  return async function compressJsonAnswer(ctx: Context, next: Next): Promise<void> {
    await next();
    const body = ctx.body;
    const encoded = body instanceof EncodedJson;
    if (!encoded && (ctx.method === 'HEAD' || !isPlainJson(body) || isExcluded(ctx) || ctx.response.get('Content-Encoding'))) return;
    // Encoded here once: Koa would otherwise stringify the body again to measure and send it.
    const answer = encoded ? body : new EncodedJson(body);
    const type = ctx.response.get('Content-Type') || JSON_TYPE;
    const status = ctx.status;
    ctx.vary('Accept-Encoding');
    const encoding =
      answer.bytes > COMPRESS_THRESHOLD && ctx.method !== 'HEAD' ? preferredEncoding(ctx.get('Accept-Encoding'), ['br', 'gzip', 'identity']) : 'identity';
    if (encoding === 'br' || encoding === 'gzip') {
      ctx.body = await answer.compressedAs(encoding);
      ctx.set('Content-Encoding', encoding);
    } else {
      ctx.body = answer.utf8;
    }
    ctx.status = status;
    ctx.set('Content-Type', type);
  };
}
