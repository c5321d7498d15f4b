/**
 * Passkey ceremonies against a test portal over plain HTTP: registering a software authenticator
 * (./software-authenticator.ts) for a user, asking for sign-in options and answering them.
 */
import { expect } from 'vitest';
import { SoftwareAuthenticator } from './software-authenticator.js';
import type { TestPortal } from './support.js';

const API = '/api/auth/v1';

export function call(
  portal: TestPortal,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; userAgent?: string; cookie?: string; from?: string } = {},
) {
  return portal.fetch(`${API}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      // The caller's address, for portals with TRUST_PROXY.
      ...(options.from ? { 'x-forwarded-for': options.from } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

export async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface Options {
  challenge: string;
  rp?: { id: string };
  user?: { id: string; name: string };
  allowCredentials?: { id: string }[];
  userVerification?: string;
  rpId?: string;
  excludeCredentials?: { id: string }[];
  authenticatorSelection?: { residentKey?: string };
}

export interface PasskeyBody {
  id: number;
  name: string;
  createdTimestamp: string;
}

export const authenticatorFor = (portal: TestPortal) => new SoftwareAuthenticator(new URL(portal.deps.config.publicUrl).origin);

export async function addPasskey(portal: TestPortal, token: string, name?: string): Promise<{ authenticator: SoftwareAuthenticator; passkey: PasskeyBody }> {
  const authenticator = authenticatorFor(portal);
  const options = await json<Options>(await call(portal, 'POST', '/user/me/passkey/options', { token }), 200);
  const passkey = await json<PasskeyBody>(
    await call(portal, 'POST', '/user/me/passkey', { token, body: { response: authenticator.register(options), ...(name ? { name } : {}) } }),
    201,
  );
  return { authenticator, passkey };
}

export const signInOptions = async (portal: TestPortal, MfaToken?: string) =>
  json<Options>(await call(portal, 'POST', '/passkey/options', { body: MfaToken === undefined ? {} : { MfaToken } }), 200);

export const validate = (portal: TestPortal, response: unknown, MfaToken?: string, redirect?: string) =>
  call(portal, 'POST', '/validatepasskey', {
    body: { response, ...(MfaToken === undefined ? {} : { MfaToken }), ...(redirect === undefined ? {} : { redirect }) },
  });

/** An answer to these options for `credentialId`, signed by another key: a wrong signature. */
export function forgedAssertion(portal: TestPortal, credentialId: string, options: { challenge: string }): unknown {
  const answer = authenticatorFor(portal).assert(options) as { id: string; rawId: string };
  return { ...answer, id: credentialId, rawId: credentialId };
}
