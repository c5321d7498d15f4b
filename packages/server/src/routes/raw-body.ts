/** A request body as bytes, refused with 413 past `limit` before more than that is read. */
import { ApiError } from '@tools-portal/core';
import type { Context } from 'koa';

export async function rawBodyOf(ctx: Context, limit: number, field: string): Promise<Buffer> {
  const tooLarge = () => new ApiError('payload_too_large', `${field}: is larger than the ${Math.round(limit / 1024)} KB limit`, { field });
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
