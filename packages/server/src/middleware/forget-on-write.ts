/**
 * After any change made through this instance, the auth cache forgets everything, so a logout,
 * a deletion, a revoked grant or a deleted key takes effect at once here (other instances
 * follow within the cache's lifetime). Clearing on every successful write, rather than naming
 * the calls that revoke, keeps calls added later from being missed; writes are rare.
 */
import type { Context, Next } from 'koa';
import { SAFE_METHODS } from './csrf.js';

export function forgetOnWrite(cache: { clear(): void | Promise<void> }) {
  return async function clearAuthCache(ctx: Context, next: Next): Promise<void> {
    await next();
    // Awaited: with several workers (WORKERS), the answer leaves once every worker has forgotten.
    if (!SAFE_METHODS.has(ctx.method) && ctx.status < 400) await cache.clear();
  };
}
