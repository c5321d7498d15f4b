/**
 * What every command needs: the options, the portal's URL and credentials (flags, then
 * environment, then the config file), an API client, and a place for progress messages.
 */
import type { Fetch, PortalClient } from '@tools-portal/core';
import { readConfig, withConfigLock, writeConfig, type StoredConfig } from './config-file.js';
import { NotLoggedInError, UsageError } from './exit-codes.js';
import type { OutputMode } from './output.js';

const DEFAULT_URL = 'http://127.0.0.1:8080';
// A browser sign-in's access token is renewed when it has less than this left.
const RENEW_MARGIN_MS = 60_000;

export interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
  quiet?: boolean;
}

export class Context {
  readonly mode: OutputMode;
  private stored: StoredConfig | undefined;

  constructor(readonly options: GlobalOptions) {
    if (options.json && options.quiet) throw new UsageError('choose one of --json and --quiet');
    this.mode = options.json ? 'json' : options.quiet ? 'quiet' : 'human';
  }

  get config(): StoredConfig {
    this.stored ??= readConfig();
    return this.stored;
  }

  /** The portal's URL: --url, TOOLS_URL, the URL of the last login, or the default. */
  get url(): string {
    const url = this.options.url ?? process.env.TOOLS_URL ?? this.config.url ?? DEFAULT_URL;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`not a URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`not an http(s) URL: ${url}`);
    return parsed.origin + parsed.pathname.replace(/\/+$/, '');
  }

  /** --token, TOOLS_TOKEN, or the token `toolsctl login` stored for this same URL. */
  get token(): string | undefined {
    const explicit = this.options.token ?? process.env.TOOLS_TOKEN;
    if (explicit) return explicit;
    return this.config.token && this.config.url === this.url ? this.config.token : undefined;
  }

  /** An API client; with `authenticated` (the default) it insists on credentials first. */
  async client(authenticated = true): Promise<PortalClient> {
    const token = authenticated ? await this.freshToken() : undefined;
    if (authenticated && !token) {
      throw new NotLoggedInError(`not logged in to ${this.url}: run \`toolsctl login\`, or pass --token or TOOLS_TOKEN`);
    }
    const { PortalClient } = await import('@tools-portal/core');
    return new PortalClient({ baseUrl: this.url, token, fetch: globalThis.fetch as Fetch });
  }

  /**
   * The token to call with: as `token`, but the access token of a browser sign-in is renewed
   * first when it is near its end (its refresh token is spent and the new one saved, under the
   * config file's lock: another toolsctl may be renewing it at the same moment).
   */
  async freshToken(): Promise<string | undefined> {
    const token = this.token;
    return token && token === this.config.token ? this.storedToken() : token;
  }

  /** The token `toolsctl login` saved for this URL (whatever --token or TOOLS_TOKEN say), renewed when near its end. */
  async storedToken(): Promise<string | undefined> {
    const stored = this.config;
    if (!stored.token || stored.url !== this.url) return undefined;
    if (!needsRenewal(stored)) return stored.token;
    return withConfigLock(async () => {
      const current = readConfig();
      if (current.url !== this.url || !current.token) return undefined;
      this.stored = current;
      if (!needsRenewal(current)) return current.token;
      const { refreshDeviceTokens } = await import('./device-login.js');
      const tokens = await refreshDeviceTokens(this.url, current.refreshToken!);
      const next: StoredConfig = { ...current, token: tokens.accessToken, refreshToken: tokens.refreshToken, tokenExpires: tokens.expires };
      writeConfig(next);
      this.stored = next;
      return next.token;
    });
  }

  /** Progress and notes for people: on stderr, silent with --quiet. */
  note(message: string): void {
    if (this.mode !== 'quiet') process.stderr.write(`${message}\n`);
  }
}

const needsRenewal = (stored: StoredConfig) => Boolean(stored.refreshToken) && (stored.tokenExpires ?? 0) - Date.now() < RENEW_MARGIN_MS;
