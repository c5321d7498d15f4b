/** The session cookie (docs/product.md, Sessions): HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https. */
import type { Context } from 'koa';
import { SESSION_COOKIE } from './middleware/auth.js';

export interface CookiePolicy {
  secureCookies: boolean;
  sessionTtlDays: number;
}

/** An HttpOnly, SameSite=Lax cookie; a max age of 0 clears it. */
export function serializeCookie(name: string, value: string, options: { path: string; maxAgeSeconds: number; secure: boolean }): string {
  const { path, maxAgeSeconds, secure } = options;
  const parts = [`${name}=${value}`, `Path=${path}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Lax'];
  if (maxAgeSeconds > 0) parts.push(`Expires=${new Date(Date.now() + maxAgeSeconds * 1000).toUTCString()}`);
  else parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

// Written by hand: Koa's cookie jar refuses Secure cookies behind a TLS-terminating proxy.
export function setSessionCookie(ctx: Context, policy: CookiePolicy, token: string): void {
  ctx.append(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, token, { path: '/', maxAgeSeconds: policy.sessionTtlDays * 24 * 60 * 60, secure: policy.secureCookies }),
  );
}

export function clearSessionCookie(ctx: Context, policy: CookiePolicy): void {
  ctx.append('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { path: '/', maxAgeSeconds: 0, secure: policy.secureCookies }));
}

/** The device cookie (services/sign-in/login-devices.ts): sent only to the sign-in calls of the API. */
export const DEVICE_COOKIE = 'portal_device';
const DEVICE_COOKIE_PATH = '/api/auth/v1';

export function setDeviceCookie(ctx: Context, policy: CookiePolicy, deviceId: string): void {
  ctx.append(
    'Set-Cookie',
    serializeCookie(DEVICE_COOKIE, deviceId, { path: DEVICE_COOKIE_PATH, maxAgeSeconds: policy.sessionTtlDays * 24 * 60 * 60, secure: policy.secureCookies }),
  );
}
