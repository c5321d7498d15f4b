/**
 * The device side of the device grant (RFC 8628) as a test drives it: the device authorization
 * request of `toolsctl` and its polls of the token endpoint, in plain HTTP as a terminal sends them.
 */
import { TOOLSCTL_CLIENT_ID, TOOLSCTL_SCOPE, type PortalClient } from '@tools-portal/core';
import type { Knex } from 'knex';
import { expect } from 'vitest';

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface TokenAnswer {
  status: number;
  body: {
    access_token?: string;
    refresh_token?: string;
    id_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  };
}

async function form(url: string, fields: Record<string, string>): Promise<TokenAnswer> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  return { status: response.status, body: (await response.json()) as TokenAnswer['body'] };
}

/** Starts a device sign-in of `toolsctl` (or `clientId`) from host `host`. */
export async function startDevice(baseUrl: string, options: { host?: string; clientId?: string } = {}): Promise<DeviceAuthorization> {
  const answer = await form(`${baseUrl}/oidc/device/auth`, {
    client_id: options.clientId ?? TOOLSCTL_CLIENT_ID,
    scope: TOOLSCTL_SCOPE,
    ...(options.host === undefined ? { host: 'build-box' } : options.host ? { host: options.host } : {}),
  });
  if (answer.status !== 200) throw new Error(`device authorization answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as DeviceAuthorization;
}

/** One poll of the token endpoint for a device code. */
export function pollDevice(baseUrl: string, deviceCode: string, clientId = TOOLSCTL_CLIENT_ID): Promise<TokenAnswer> {
  return form(`${baseUrl}/oidc/token`, { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: clientId });
}

/**
 * Moves every device's last poll `ms` into the past, as waiting that long would: the poll interval
 * (`slow_down`) is measured from that time alone (services/openid/device-requests.ts, recordPoll).
 */
export async function movePollsBack(db: Knex, ms: number): Promise<void> {
  await db('oidc_device_requests')
    .whereNotNull('polled_at')
    .update({ polled_at: db.raw('?? - ?', ['polled_at', ms]) });
}

/** A refresh of `toolsctl`'s tokens. */
export function refreshDevice(baseUrl: string, refreshToken: string, clientId = TOOLSCTL_CLIENT_ID): Promise<TokenAnswer> {
  return form(`${baseUrl}/oidc/token`, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
}

export interface SignedInDevice {
  device: DeviceAuthorization;
  access: string;
  refresh: string;
  /** Seconds the access token lives. */
  expiresIn: number;
}

/** A new device request from `host`, allowed by the user of `api` (no wait: the first poll is not too soon); answers its tokens. */
export async function signedInDevice(baseUrl: string, api: PortalClient, host = 'build-box'): Promise<SignedInDevice> {
  const device = await startDevice(baseUrl, { host });
  await api.device.approve(device.user_code);
  const answer = await pollDevice(baseUrl, device.device_code);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { device, access: answer.body.access_token!, refresh: answer.body.refresh_token!, expiresIn: answer.body.expires_in! };
}
