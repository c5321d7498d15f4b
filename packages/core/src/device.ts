/**
 * Signing in a terminal or another input-poor device through the device grant (RFC 8628;
 * docs/oidc.md, Device grant): the portal's verification page looks a request up by the user code
 * the device shows, then allows or denies it.
 */
import { z } from 'zod';

/** The built-in public client of `toolsctl`: not an app, never listed, cannot be deleted. */
export const TOOLSCTL_CLIENT_ID = 'toolsctl';

/** The scopes `toolsctl` asks for: an ID token and a refresh token (rotated on every use). */
export const TOOLSCTL_SCOPE = 'openid offline_access';

/** Most characters of a device's host name as it sends it (longer ones are refused). */
export const MAX_DEVICE_HOST_LENGTH = 100;

/** `POST /device/lookup`, `/device/approve`, `/device/deny`: the user code as typed (case and dashes do not matter). */
export const deviceCodeInput = z.object({
  user_code: z.string({ error: 'must be a string' }).trim().min(1, { error: 'is required' }).max(32, { error: 'must be at most 32 characters' }),
});
export type DeviceCodeInput = z.input<typeof deviceCodeInput>;

/** `POST /device/lookup`: which device asks, so that the user can tell it is theirs. */
export const deviceRequestAnswer = z.strictObject({
  user_code: z.string().describe('the code as the device shows it (BCDF-GHJK)'),
  client_id: z.string().describe('toolsctl, or the app that asks'),
  name: z.string().describe('what the new session will be called: "toolsctl on HOST"'),
  host: z.string().describe('the host name the device sent (may be empty)'),
  address: z.string().describe('the address the request came from'),
  requestedTimestamp: z.string().describe('ISO 8601 timestamp'),
});
export type DeviceRequest = z.infer<typeof deviceRequestAnswer>;

/** The name of the session a device sign-in makes: "toolsctl on HOST" (without a host, the client alone). */
export function deviceSessionName(clientId: string, host: string): string {
  return host ? `${clientId} on ${host}` : clientId;
}
