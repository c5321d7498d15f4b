/**
 * The server's configuration: every environment variable parsed and validated at once, so a bad
 * value stops the start with one clear message (docs/configuration.md lists them all).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PORTAL_NAME, isHttpUrl } from '@tools-portal/core';
import { checkIcon } from './services/apps/icon-images.js';
import { LANGUAGES, isLanguage, type Language } from '@tools-portal/core/languages';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Origin of PUBLIC_URL: what Origin headers, cookies and redirects are checked against. */
  publicOrigin: string;
  /**
   * Origins whose unsafe requests are accepted (CSRF check): PUBLIC_URL's, and with the default
   * PUBLIC_URL also the other loopback names, so both http://localhost:8080 and
   * http://127.0.0.1:8080 work out of the box.
   */
  trustedOrigins: string[];
  secureCookies: boolean;
  databaseUrl: string;
  /** Most PostgreSQL connections this process opens (SQLite always uses one). */
  databasePoolMax: number;
  adminEmail: string;
  adminPassword: string | undefined;
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  staffEmailDomain: string | undefined;
  sessionTtlDays: number;
  sessionIdleDays: number;
  inviteTtlDays: number;
  scryptLogN: number;
  /** Who must have a second factor (services/sign-in/sign-in.ts): none, admins or all. */
  mfaRequired: 'none' | 'admins' | 'all';
  /** Whether MFA_REQUIRED covers Google sign-ins too (otherwise they are trusted as Google's). */
  mfaRequiredForGoogle: boolean;
  /** Password hashes run at once (services/sign-in/hash-pool.ts). */
  passwordHashConcurrency: number;
  /** Password hashes that may wait for the pool; past it a login answers 503. */
  passwordHashQueue: number;
  trustProxy: boolean;
  /** Whether forward auth and OpenID sign-ins record each app's last use (docs/reviews.md). */
  recordLastUse: boolean;
  loginFailuresPerEmail: number;
  loginFailuresPerAddress: number;
  loginWindowMinutes: number;
  loginBanMinutes: number;
  /** Google sign-ins one address may start per 10 minutes (the life of a sign-in under way). */
  googleStartsPerAddress: number;
  /** Most Google sign-ins under way at once from all addresses; the oldest go first. */
  googlePendingMax: number;
  /** Passkey sign-in challenges one address may ask for per 5 minutes (the life of a challenge); past it 429. */
  passkeyChallengesPerAddress: number;
  /** Most unexpired passkey challenges from all addresses; the oldest go first. */
  passkeyChallengesMax: number;
  /** Invitation checks (`POST /registrationtoken/status`) one address may make per 10 minutes; past it 429. */
  tokenChecksPerAddress: number;
  /** SECRET_KEY: encrypts secrets that must be read back (services/support/secret-box.ts); undefined when unset. */
  secretKey: Buffer | undefined;
  /** Seconds an in-process cache entry (session, grants, app list, OpenID access token) may live (docs/product.md, Forward auth: at most 5). */
  authCacheSeconds: number;
  /** Event-log entries older than this many days are deleted in the background; 0 keeps all. */
  logRetentionDays: number;
  webRoot: string | undefined;
  logLevel: LogLevel;
  /** `json` lines or readable `pretty` lines; json unless stdout is a terminal. */
  logFormat: 'json' | 'pretty';
  /** Bearer token that opens GET /metrics to callers other than a direct loopback one. */
  metricsToken: string | undefined;
  /** Server processes sharing the port (node:cluster); 1 is a single process. */
  workers: number;
  /** Outgoing mail (docs/email.md); undefined when SMTP_URL is not set: nothing is sent. */
  mail: MailConfig | undefined;
  /** The language of readers who chose none and whose browser names none we speak, and of mail to them. */
  defaultLanguage: Language;
  /** Signed webhooks (docs/webhooks.md). */
  webhooks: WebhookConfig;
  /** How the portal looks and names itself (PORTAL_NAME, PORTAL_LOGO, PORTAL_ACCENT_COLOR, OLD_DOCS_URL). */
  branding: Branding;
}

export interface Branding {
  /** PORTAL_NAME: the heading, navigation, page title, authenticator issuer and password rule. */
  portalName: string;
  /** PORTAL_LOGO's image, read once at start: a PNG or WebP of at most 256 KB. */
  logo: { contentType: 'image/png' | 'image/webp'; data: Buffer; version: string } | undefined;
  /** PORTAL_ACCENT_COLOR, `#rrggbb` in lower case. */
  accentColor: string | undefined;
  /** OLD_DOCS_URL: the "old documentation" link; none without it. */
  oldDocsUrl: string | undefined;
}

interface WebhookConfig {
  /** Receivers on loopback addresses allowed (tests); link-local ones never are. */
  allowLoopback: boolean;
  /** How often each instance looks for deliveries that are due (retries, deliveries of crashed instances). */
  pollSeconds: number;
  /** The first retry waits this long; each further one twice as long (at most an hour), for 24 hours. */
  retrySeconds: number;
}

export interface MailConfig {
  /** `smtp://user:pass@host:port` or `smtps://…`. */
  smtpUrl: string;
  /** The From header, e.g. `Tools-Server <no-reply@tools.example.com>`. */
  from: string;
  /** How often each instance looks for mail that is due (retries, mail of crashed instances). */
  pollSeconds: number;
  /** The first retry waits this long; each further one twice as long (at most an hour), for 24 hours. */
  retrySeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** An integer setting's bounds. */
interface Bounds {
  min: number;
  max: number;
}

/** How the parts of the configuration read their settings, and where they report a problem. */
interface SettingsReader {
  read: (name: string) => string | undefined;
  integer: (name: string, fallback: number, bounds: Bounds) => number;
  problems: string[];
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const integer = (name: string, fallback: number, { min, max }: Bounds): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  };

  const port = integer('PORT', 8080, { min: 0, max: 65535 });
  const host = read('HOST') ?? '127.0.0.1';

  const explicitPublicUrl = read('PUBLIC_URL');
  const publicUrl = (explicitPublicUrl ?? `http://localhost:${port}`).replace(/\/+$/, '');
  let publicOrigin = 'http://localhost';
  try {
    const url = new URL(publicUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    publicOrigin = url.origin;
  } catch {
    problems.push(`PUBLIC_URL must be an absolute http(s) URL, got "${publicUrl}"`);
  }

  const databaseUrl = read('DATABASE_URL') ?? 'sqlite:./data/portal.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    problems.push(`DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }

  const adminEmail = (read('ADMIN_EMAIL') ?? 'admin@localhost').toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(adminEmail)) problems.push(`ADMIN_EMAIL must be an email address, got "${adminEmail}"`);

  const clientId = read('GOOGLE_CLIENT_ID');
  const clientSecret = read('GOOGLE_CLIENT_SECRET');
  const issuer = read('OIDC_ISSUER') ?? 'https://accounts.google.com';
  if (Boolean(clientId) !== Boolean(clientSecret)) {
    problems.push('GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together');
  }
  if (!/^https:\/\/[^/?#\s]+/.test(issuer) && !isLoopbackHttp(issuer)) {
    problems.push(`OIDC_ISSUER must be an https URL (plain http only on 127.0.0.1 or localhost), got "${issuer}"`);
  }

  const logLevel = (read('LOG_LEVEL') ?? 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of debug, info, warn, error, silent, got "${logLevel}"`);
  }

  const rawSecretKey = read('SECRET_KEY');
  const secretKey = rawSecretKey === undefined ? undefined : parseSecretKey(rawSecretKey);
  if (typeof secretKey === 'string') problems.push(`SECRET_KEY ${secretKey}`);
  const logFormat = (read('LOG_FORMAT') ?? (process.stdout.isTTY ? 'pretty' : 'json')) as Config['logFormat'];
  if (!['json', 'pretty'].includes(logFormat)) problems.push(`LOG_FORMAT must be json or pretty, got "${logFormat}"`);

  const metricsToken = read('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters long');
  }

  const rawWorkers = read('WORKERS')?.toLowerCase();
  const workers = rawWorkers === 'auto' ? os.availableParallelism() : integer('WORKERS', 1, { min: 1, max: 256 });

  const sessionTtlDays = integer('SESSION_TTL_DAYS', 365, { min: 1, max: 3650 });
  const mfaRequired = (read('MFA_REQUIRED')?.toLowerCase() ?? 'none') as Config['mfaRequired'];
  if (!['none', 'admins', 'all'].includes(mfaRequired)) problems.push(`MFA_REQUIRED must be none, admins or all, got "${mfaRequired}"`);
  const branding = brandingConfig(read, problems);
  const mail = mailConfig({ read, integer, problems }, { publicUrl, portalName: branding.portalName });
  const defaultLanguage = read('DEFAULT_LANGUAGE') ?? 'en';
  if (!isLanguage(defaultLanguage)) problems.push(`DEFAULT_LANGUAGE must be ${LANGUAGES.join(' or ')}, got "${defaultLanguage}"`);
  const config: Config = {
    port,
    host,
    publicUrl,
    publicOrigin,
    trustedOrigins: explicitPublicUrl ? [publicOrigin] : loopbackOrigins(port),
    secureCookies: publicOrigin.startsWith('https:'),
    databaseUrl,
    databasePoolMax: integer('DATABASE_POOL_MAX', 10, { min: 1, max: 1000 }),
    adminEmail,
    adminPassword: read('ADMIN_PASSWORD'),
    google: clientId && clientSecret ? { clientId, clientSecret, issuer } : undefined,
    staffEmailDomain: read('STAFF_EMAIL_DOMAIN')?.toLowerCase(),
    sessionTtlDays,
    sessionIdleDays: integer('SESSION_IDLE_DAYS', 30, { min: 1, max: 3650 }),
    inviteTtlDays: integer('INVITE_TTL_DAYS', 7, { min: 1, max: 365 }),
    scryptLogN: integer('SCRYPT_LOGN', 17, { min: 10, max: 22 }),
    mfaRequired,
    mfaRequiredForGoogle: boolean('MFA_REQUIRED_FOR_GOOGLE', false),
    passwordHashConcurrency: integer('PASSWORD_HASH_CONCURRENCY', 2, { min: 1, max: 64 }),
    passwordHashQueue: integer('PASSWORD_HASH_QUEUE', 32, { min: 0, max: 10000 }),
    trustProxy: boolean('TRUST_PROXY', false),
    recordLastUse: boolean('RECORD_LAST_USE', true),
    loginFailuresPerEmail: integer('LOGIN_FAILURES_PER_EMAIL', 5, { min: 1, max: 1000 }),
    loginFailuresPerAddress: integer('LOGIN_FAILURES_PER_ADDRESS', 20, { min: 1, max: 100000 }),
    loginWindowMinutes: integer('LOGIN_WINDOW_MINUTES', 5, { min: 1, max: 1440 }),
    loginBanMinutes: integer('LOGIN_BAN_MINUTES', 10, { min: 1, max: 1440 }),
    googleStartsPerAddress: integer('GOOGLE_STARTS_PER_ADDRESS', 20, { min: 1, max: 100_000 }),
    googlePendingMax: integer('GOOGLE_PENDING_MAX', 10_000, { min: 1, max: 10_000_000 }),
    passkeyChallengesPerAddress: integer('PASSKEY_CHALLENGES_PER_ADDRESS', 20, { min: 1, max: 100_000 }),
    passkeyChallengesMax: integer('PASSKEY_CHALLENGES_MAX', 10_000, { min: 1, max: 10_000_000 }),
    tokenChecksPerAddress: integer('TOKEN_CHECKS_PER_ADDRESS', 20, { min: 1, max: 100_000 }),
    secretKey: typeof secretKey === 'string' ? undefined : secretKey,
    authCacheSeconds: integer('AUTH_CACHE_SECONDS', 5, { min: 0, max: 5 }),
    logRetentionDays: integer('LOG_RETENTION_DAYS', 400, { min: 0, max: 36500 }),
    webRoot: read('WEB_ROOT'),
    logLevel,
    logFormat,
    metricsToken,
    workers,
    mail,
    defaultLanguage: isLanguage(defaultLanguage) ? defaultLanguage : 'en',
    webhooks: {
      allowLoopback: boolean('WEBHOOK_ALLOW_LOOPBACK', false),
      pollSeconds: integer('WEBHOOK_POLL_SECONDS', 10, { min: 1, max: 3600 }),
      retrySeconds: integer('WEBHOOK_RETRY_SECONDS', 60, { min: 1, max: 3600 }),
    },
    branding,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * `.env` in the working directory, when there is one, read by Node's own loader into
 * process.env; a variable set in the environment wins over the file.
 */
function loadDotEnv(file = '.env'): boolean {
  if (!fs.existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

/**
 * Outgoing mail (docs/email.md): undefined without SMTP_URL; MAIL_FROM, MAIL_POLL_SECONDS and
 * MAIL_RETRY_SECONDS are checked even then.
 */
function mailConfig({ read, integer, problems }: SettingsReader, { publicUrl, portalName }: { publicUrl: string; portalName: string }): MailConfig | undefined {
  const smtpUrl = read('SMTP_URL');
  const pollSeconds = integer('MAIL_POLL_SECONDS', 10, { min: 1, max: 3600 });
  const retrySeconds = integer('MAIL_RETRY_SECONDS', 60, { min: 1, max: 3600 });
  const explicitFrom = read('MAIL_FROM');
  if (explicitFrom !== undefined && !isMailFrom(explicitFrom)) {
    problems.push(`MAIL_FROM must be an address or "Name <address>", got "${explicitFrom}"`);
  }
  if (smtpUrl === undefined) return undefined;
  let host = 'localhost';
  try {
    host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '') || host;
  } catch {
    // PUBLIC_URL's own problem is reported already.
  }
  if (!isSmtpUrl(smtpUrl)) {
    problems.push(`SMTP_URL must be smtp://[user:pass@]host[:port] or smtps://…, got "${smtpUrl.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')}"`);
  }
  return { smtpUrl, from: explicitFrom ?? `${displayName(portalName)} <no-reply@${host}>`, pollSeconds, retrySeconds };
}

const MAX_PORTAL_NAME_LENGTH = 60;
const MAX_LOGO_BYTES = 256 * 1024;

/** PORTAL_NAME, PORTAL_LOGO (read and checked now), PORTAL_ACCENT_COLOR and OLD_DOCS_URL. */
function brandingConfig(read: (name: string) => string | undefined, problems: string[]): Branding {
  const portalName = read('PORTAL_NAME') ?? DEFAULT_PORTAL_NAME;
  if ([...portalName].length > MAX_PORTAL_NAME_LENGTH || /[\u0000-\u001f\u007f<>]/.test(portalName)) {
    problems.push(`PORTAL_NAME must be at most ${MAX_PORTAL_NAME_LENGTH} characters without control characters or < >, got "${portalName}"`);
  }
  const rawAccent = read('PORTAL_ACCENT_COLOR');
  const accent = rawAccent === undefined ? undefined : /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(rawAccent)?.[1]?.toLowerCase();
  if (rawAccent !== undefined && accent === undefined) problems.push(`PORTAL_ACCENT_COLOR must be a colour as #rrggbb, got "${rawAccent}"`);
  const accentColor = accent === undefined ? undefined : `#${accent.length === 3 ? [...accent].map((digit) => digit + digit).join('') : accent}`;
  const oldDocsUrl = read('OLD_DOCS_URL');
  if (oldDocsUrl !== undefined && !isHttpUrl(oldDocsUrl) && !/^\/(?!\/)[^\s\\]*$/.test(oldDocsUrl)) {
    problems.push(`OLD_DOCS_URL must be an absolute http(s) URL or a path starting with /, got "${oldDocsUrl}"`);
  }
  return { portalName, logo: logoFile(read('PORTAL_LOGO'), problems), accentColor, oldDocsUrl };
}

function logoFile(file: string | undefined, problems: string[]): Branding['logo'] {
  if (file === undefined) return undefined;
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    problems.push(`PORTAL_LOGO cannot be read: ${(error as Error).message}`);
    return undefined;
  }
  const check = checkIcon(data);
  if (data.length > MAX_LOGO_BYTES) problems.push(`PORTAL_LOGO must be at most ${MAX_LOGO_BYTES / 1024} KB, got ${Math.ceil(data.length / 1024)} KB`);
  else if (!check.ok || check.type === 'image/jpeg') problems.push(`PORTAL_LOGO must be a PNG or WebP image: ${file} ${check.ok ? 'is a JPEG' : check.reason}`);
  else return { contentType: check.type, data, version: createHash('sha256').update(data).digest('base64url').slice(0, 16) };
  return undefined;
}

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '' && (url.pathname === '' || url.pathname === '/');
  } catch {
    return false;
  }
}

// One address, bare or after a display name; never a line break (a header of its own).
/** A From's display name: quoted when it holds characters that RFC 5322 would read as syntax (`Acme, Inc.`). */
function displayName(name: string): string {
  return /[",;:\\()<>@[\].]/.test(name) ? `"${name.replace(/["\\]/g, '\\$&')}"` : name;
}

function isMailFrom(value: string): boolean {
  if (/[\r\n]/.test(value)) return false;
  const match = /^(?:[^<>]*<([^<>\s]+)>|([^<>\s]+))$/.exec(value.trim());
  const address = match?.[1] ?? match?.[2];
  return address !== undefined && /^[^\s@]+@[^\s@]+$/.test(address);
}

/** For the command-line entry points: `.env` first, then the configuration, or its problems on stderr and exit code 1. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    if (env === process.env) loadDotEnv();
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

export const SECRET_KEY_BYTES = 32;

/** SECRET_KEY's value: base64 (or base64url) of exactly 32 bytes, else the reason it is not. */
export function parseSecretKey(raw: string): Buffer | string {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) return 'must be base64 of 32 random bytes (make one with `openssl rand -base64 32`)';
  const key = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length !== SECRET_KEY_BYTES) {
    return `must be base64 of ${SECRET_KEY_BYTES} bytes, got ${key.length} bytes (make one with \`openssl rand -base64 32\`)`;
  }
  return key;
}

/** An http URL on this machine: the only place an OpenID issuer may be reached without TLS (tests). */
export function isLoopbackHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** The SQLite file of a `sqlite:` URL, resolved against the working directory. */
export function sqliteFile(databaseUrl: string): string {
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  return file === ':memory:' ? file : path.resolve(file);
}

function loopbackOrigins(port: number): string[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`];
}
