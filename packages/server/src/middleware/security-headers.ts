import type { Context, Next } from 'koa';

/** The portal's CSP; only the style sources vary (the API docs page needs inline styles, api-docs.ts). */
export function contentSecurityPolicy(styleSources = "'self'"): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSources}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export function securityHeaders(https: boolean) {
  return async function setSecurityHeaders(ctx: Context, next: Next): Promise<void> {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (https) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    await next();
  };
}
