/** The steps of a sign-in with an authenticator app against a test portal, over plain HTTP. */
import { totpCode } from '../../src/services/sign-in/totp.js';
import { call, json } from './passkey-ceremony.js';
import type { TestPortal } from './support.js';

/** A user with an authenticator app: answers its secret and recovery codes. */
export async function enrol(portal: TestPortal, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await json<{ secret: string }>(await call(portal, 'POST', '/user/me/totp', { token }), 200);
  const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(
    await call(portal, 'POST', '/user/me/totp/confirm', { token, body: { Code: totpCode(secret, Date.now()) } }),
    200,
  );
  return { secret, recoveryCodes };
}

/** The browser's device cookie, as a Cookie header, if the answer set one. */
export const deviceCookieOf = (response: Response) => /portal_device=[^;]+/.exec(response.headers.getSetCookie().join('\n'))?.[0];

/** A password step that makes a pending sign-in: its token, and the device cookie it set (if any). */
export async function pendingSignIn(portal: TestPortal, email: string, password: string, options: { from?: string; cookie?: string } = {}) {
  const response = await call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: password }, ...options });
  const cookie = deviceCookieOf(response);
  const { mfa } = await json<{ mfa: { token: string } }>(response, 200);
  return { token: mfa.token, cookie };
}

export const sendCode = (portal: TestPortal, MfaToken: string, Code: string, options: { from?: string; cookie?: string } = {}) =>
  call(portal, 'POST', '/validatemfa', { body: { MfaToken, Code }, ...options });
