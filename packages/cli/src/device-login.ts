/**
 * `toolsctl login` in the browser: the OAuth 2.0 device grant (RFC 8628) of the portal's built-in
 * client `toolsctl`, through openid-client (docs/cli.md, docs/oidc.md Device grant). The device asks
 * with this machine's host name, prints where to go and the code, opens a browser when one is
 * available, and polls as the server says (openid-client backs off on `slow_down`). The access
 * token it gets stands for a portal session named "toolsctl on HOST"; the refresh token renews it
 * and is rotated on every use.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { ApiError, TOOLSCTL_CLIENT_ID, TOOLSCTL_SCOPE } from '@tools-portal/core';
import type { Configuration } from 'openid-client';
import { DeviceLoginError, NotLoggedInError, UsageError } from './exit-codes.js';

export interface DeviceTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token ends (ms since the epoch). */
  expires: number;
}

/** The provider of the portal at `url` (its issuer), as the built-in public client. */
async function providerOf(url: string): Promise<{ config: Configuration; client: typeof import('openid-client') }> {
  const client = await import('openid-client');
  const insecure = new URL(url).protocol === 'http:';
  try {
    const options = insecure ? { execute: [client.allowInsecureRequests] } : undefined;
    return { config: await client.discovery(new URL(url), TOOLSCTL_CLIENT_ID, undefined, client.None(), options), client };
  } catch (error) {
    if (error instanceof TypeError) {
      const reason = (error.cause as Error | undefined)?.message ?? error.message;
      throw new ApiError('unavailable', `cannot reach ${url}: ${reason}`, { network: true });
    }
    const { code, cause } = error as { code?: string; cause?: { body?: { issuer?: unknown } } };
    const issuer = cause?.body?.issuer;
    if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' && typeof issuer === 'string') {
      throw new UsageError(`${url} is not the portal's own address: sign in with --url ${issuer}`);
    }
    throw error;
  }
}

const tokensOf = (answer: { access_token: string; refresh_token?: string; expires_in?: number }, now: number): DeviceTokens => ({
  accessToken: answer.access_token,
  refreshToken: answer.refresh_token ?? '',
  expires: now + (answer.expires_in ?? 3600) * 1000,
});

const errorOf = (error: unknown): string | undefined => (error as { error?: unknown }).error as string | undefined;

/**
 * Signs this machine in through the browser. `show` prints the way (stderr); the browser is opened
 * unless `openBrowser` is false or none is available.
 */
export async function deviceLogin(url: string, options: { openBrowser: boolean; show: (message: string) => void }): Promise<DeviceTokens> {
  const { config, client } = await providerOf(url);
  const request = await client.initiateDeviceAuthorization(config, { scope: TOOLSCTL_SCOPE, host: os.hostname() });
  const complete = request.verification_uri_complete ?? request.verification_uri;
  options.show(
    [
      `To sign in, open ${request.verification_uri} and enter the code ${request.user_code}`,
      `or open ${complete}`,
      `The code expires in ${Math.round(request.expires_in / 60)} minutes. Waiting for you to allow it…`,
    ].join('\n'),
  );
  if (options.openBrowser) openInBrowser(complete);
  noteSlowDown(config, client, options.show);
  try {
    return tokensOf(await client.pollDeviceAuthorizationGrant(config, request), Date.now());
  } catch (error) {
    const code = errorOf(error);
    if (code === 'access_denied') {
      const why = (error as { error_description?: string }).error_description;
      throw new DeviceLoginError('denied', `the sign-in was denied${why ? `: ${why}` : ''}`);
    }
    if (code === 'expired_token') throw new DeviceLoginError('expired', 'the code expired before the sign-in was allowed: run `toolsctl login` again');
    throw error;
  }
}

/**
 * openid-client backs off by itself when the portal answers `slow_down` (RFC 8628 §3.5); toolsctl
 * says so, so that a slower wait does not look like a hang.
 */
function noteSlowDown(config: Configuration, client: typeof import('openid-client'), show: (message: string) => void): void {
  const tokenEndpoint = config.serverMetadata().token_endpoint;
  config[client.customFetch] = async (url, init) => {
    const response = await fetch(url, init as RequestInit);
    if (url === tokenEndpoint && response.status === 400) {
      const body = (await response
        .clone()
        .json()
        .catch(() => undefined)) as { error?: string } | undefined;
      if (body?.error === 'slow_down') show('The portal asked toolsctl to check less often; still waiting for you to allow it…');
    }
    return response;
  };
}

/** New tokens for a refresh token; the one given is spent. An ended session says so (exit 3). */
export async function refreshDeviceTokens(url: string, refreshToken: string): Promise<DeviceTokens> {
  const { config, client } = await providerOf(url);
  try {
    return tokensOf(await client.refreshTokenGrant(config, refreshToken), Date.now());
  } catch (error) {
    if (errorOf(error) === 'invalid_grant') throw new NotLoggedInError(`the session of \`toolsctl login\` at ${url} has ended: run \`toolsctl login\``);
    throw error;
  }
}

/** Whether a browser can be opened here: a desktop session (Linux), or macOS and Windows. */
function browserAvailable(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

function openInBrowser(target: string): void {
  if (!browserAvailable()) return;
  const [command, args] =
    process.platform === 'darwin' ? ['open', [target]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', target]] : ['xdg-open', [target]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the URL is printed.
  }
}
