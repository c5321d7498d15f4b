/**
 * The device grant (RFC 8628; docs/oidc.md, Device grant) as oidc-provider runs it, with the
 * portal's parts: what a request tells of the device (its address, user agent and the host name
 * it sends), `slow_down` for a device that polls faster than the interval, and the verification
 * URI, which is the portal's own page (`/auth/#/device`): the provider's pages are never shown
 * (oidc/routes.ts sends their paths there).
 */
import { MAX_DEVICE_HOST_LENGTH } from '@tools-portal/core';
import type { Knex } from 'knex';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { DEVICE_POLL_INTERVAL_SECONDS, recordPoll } from '../services/openid/device-requests.js';

/** What the provider keeps of the device that asks (the DeviceCode's `deviceInfo`). */
export type DeviceInfo = {
  ip: string;
  ua: string;
  host: string;
};

/** The device authorization request's `host` parameter: the device's host name, shown to the user. */
export function deviceInfo(ctx: KoaContextWithOIDC): DeviceInfo {
  const host = ctx.oidc.params?.host;
  if (host !== undefined && typeof host !== 'string') throw new errors.InvalidRequest('host must be a string');
  const name = (host ?? '').trim();
  if (name.length > MAX_DEVICE_HOST_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new errors.InvalidRequest(`host must be at most ${MAX_DEVICE_HOST_LENGTH} characters without control characters`);
  }
  return { ip: ctx.ip, ua: ctx.get('user-agent').slice(0, 512), host: name };
}

/** The portal's verification page, and the same with the code filled in. */
export function verificationUris(publicUrl: string, userCode: string): { verification_uri: string; verification_uri_complete: string } {
  const page = `${publicUrl}/auth/#/device`;
  return { verification_uri: page, verification_uri_complete: `${page}/${encodeURIComponent(userCode)}` };
}

/** The device authorization answer names the portal's page and the polling interval (RFC 8628 §3.2). */
export function presentDeviceAuthorization(ctx: KoaContextWithOIDC, publicUrl: string): void {
  const body = ctx.body as Record<string, unknown> | undefined;
  if (ctx.status !== 200 || !body || typeof body.user_code !== 'string') return;
  Object.assign(body, verificationUris(publicUrl, body.user_code), { interval: DEVICE_POLL_INTERVAL_SECONDS });
}

interface FoundCode {
  jti: string;
  exp?: number;
  isExpired: boolean;
  accountId?: string;
  error?: string;
}

type FindOptions = { ignoreExpiration?: boolean; ignoreSessionBinding?: boolean } | undefined;

/**
 * A device polling the token endpoint sooner than the interval after its last poll is answered
 * `slow_down` (RFC 8628 §3.5) while its request is pending, on every instance alike
 * (services/openid/device-requests.ts); once allowed, denied or expired it is told so at once. The token
 * endpoint's device grant is the one caller that finds a device code ignoring its expiry but not
 * its session binding (the provider's own verification pages, the other callers, are not served).
 */
export function limitPolling(provider: Provider, db: Knex): void {
  const DeviceCode = provider.DeviceCode as unknown as { find(id: string, options?: FindOptions): Promise<FoundCode | undefined> };
  const original = DeviceCode.find.bind(DeviceCode);
  DeviceCode.find = async function find(id: string, options?: FindOptions) {
    const code = await original(id, options);
    const pending = code && !code.isExpired && !code.accountId && !code.error;
    if (pending && options?.ignoreExpiration && !options.ignoreSessionBinding) {
      const polled = await recordPoll(db, { id: code.jti, expiresAt: (code.exp ?? 0) * 1000 }, Date.now());
      if (!polled) throw new errors.SlowDown(`poll at most every ${DEVICE_POLL_INTERVAL_SECONDS} seconds`);
    }
    return code;
  };
}
