/**
 * CSRF (docs/product.md, Sessions): an unsafe request carrying the session cookie must come from the portal's
 * own origin, shown by `Origin` or else `Referer`. Bearer calls are exempt: browsers never add
 * that header on their own. A request with no credential may omit the origin (API clients
 * logging in), but one it shows must be ours, so other sites cannot log a browser in.
 */
import { ApiError } from '@tools-portal/core';
import type { Context, Next } from 'koa';
import type { Credential } from './auth.js';

/** Methods that change nothing (RFC 9110): exempt from the origin check, and no reason to forget the auth cache. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOfHeader(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

export function checkOrigin(trustedOrigins: readonly string[]) {
  return async function refuseCrossSite(ctx: Context, next: Next): Promise<void> {
    const credential = ctx.state.credential as Credential;
    if (!SAFE_METHODS.has(ctx.method) && credential?.source !== 'bearer') {
      const claimed = ctx.get('origin') || ctx.get('referer');
      const origin = claimed ? originOfHeader(claimed) : null;
      const sameOrigin = origin !== null && trustedOrigins.includes(origin);
      const required = credential?.source === 'cookie';
      if (required ? !sameOrigin : claimed !== '' && !sameOrigin) {
        throw new ApiError('forbidden', 'cross-site request refused: Origin does not match the portal');
      }
    }
    await next();
  };
}
