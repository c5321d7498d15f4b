/**
 * The path of a proxied request the way a reverse proxy and the app behind it read it
 * (docs/forward-auth.md, "The original URL, and paths that could be read two ways"): escapes of
 * unreserved characters decoded, repeated slashes merged. A path that two readers could
 * understand differently (an encoded slash or backslash, a backslash, a `;` parameter, a control
 * character, an invalid, overlong or double-encoded escape, a dot segment in any spelling) is
 * refused, never guessed at.
 */

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/** The original URL a proxy reports, split into what forward auth judges. */
export type OriginalUrl =
  | { kind: 'url'; origin: string; path: string; search: string }
  /** An http(s) URL whose path readers could understand differently: refuse it. */
  | { kind: 'ambiguous'; reason: string }
  /** Not an absolute http(s) URL with a plain host: nothing to judge by. */
  | { kind: 'invalid' };

/** Longer original URLs are not judged (no proxy sends them for a real page). */
export const MAX_ORIGINAL_URL_LENGTH = 2000;

// Already normal: non-empty segments of plain characters, none of them `.` or `..`. Most
// requests take this branch and cost one regular-expression test.
const PLAIN = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9\-._~!$&'()*+,=:@]+)*\/?$/;

// What each printable ASCII character is in a raw path (RFC 3986 pchar, plus what browsers send).
const enum Kind {
  Keep,
  Encode,
  Refuse,
}
const RAW = new Array<Kind>(128).fill(Kind.Refuse);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=:@/") RAW[char.charCodeAt(0)] = Kind.Keep;
// Outside RFC 3986 but sent unescaped by some clients; the escaped form is the canonical one.
for (const char of '"<>[]^`{|}') RAW[char.charCodeAt(0)] = Kind.Encode;

const UNRESERVED = new Array<boolean>(128).fill(false);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~') UNRESERVED[char.charCodeAt(0)] = true;

const DOUBLE_ENCODED = /%25[0-9A-Fa-f]{2}/;

const refuse = (reason: string): PathCheck => ({ ok: false, reason });

const RAW_REASONS: Record<string, string> = {
  ';': 'a path parameter (;)',
  '\\': 'a backslash',
  '#': 'a fragment (#)',
  '?': 'a query inside the path',
};

function hexDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The byte of the escape `%XY` at `at`, or -1 when there is none. */
function escapedByte(raw: string, at: number): number {
  if (raw.charCodeAt(at) !== 0x25 || at + 2 >= raw.length) return -1;
  const high = hexDigit(raw.charCodeAt(at + 1));
  const low = hexDigit(raw.charCodeAt(at + 2));
  return high < 0 || low < 0 ? -1 : (high << 4) | low;
}

const escape = (byte: number) => `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;

/**
 * The length of the UTF-8 sequence of escapes starting with `lead` at `at`, when it is a valid,
 * shortest-form encoding of a scalar value (RFC 3629); else 0. `%C0%AE` (an overlong `.`),
 * surrogates and lone continuation bytes are refused.
 */
function utf8SequenceLength(raw: string, at: number, lead: number): number {
  let length: number;
  let min = 0x80;
  let max = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) min = 0xa0;
    if (lead === 0xed) max = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) min = 0x90;
    if (lead === 0xf4) max = 0x8f;
  } else return 0;
  for (let i = 1; i < length; i++) {
    const byte = escapedByte(raw, at + 3 * i);
    if (byte < (i === 1 ? min : 0x80) || byte > (i === 1 ? max : 0xbf)) return 0;
  }
  return length;
}

/**
 * Normalizes the path of a request target (the part before `?`). Answers the path as proxies
 * route it and apps read it, in one canonical spelling (unreserved escapes decoded, other
 * escapes in upper case), or why it is refused.
 */
export function normalizeRequestPath(raw: string): PathCheck {
  if (raw.charCodeAt(0) !== 0x2f) return refuse('a path that does not start with /');
  if (PLAIN.test(raw)) return { ok: true, path: raw };

  let decoded = '';
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code !== 0x25) {
      const kind = code > 0x20 && code < 0x7f ? RAW[code] : Kind.Refuse;
      if (kind === Kind.Keep) decoded += raw[i];
      else if (kind === Kind.Encode) decoded += escape(code);
      else return refuse(RAW_REASONS[raw[i]] ?? 'a character that is not allowed in a path');
      continue;
    }
    const byte = escapedByte(raw, i);
    if (byte < 0) return refuse('an invalid percent-escape');
    if (byte === 0x2f) return refuse('an encoded slash');
    if (byte === 0x5c) return refuse('an encoded backslash');
    if (byte === 0x3b) return refuse('an encoded path parameter (;)');
    if (byte < 0x20 || byte === 0x7f) return refuse('an encoded control character');
    if (byte < 0x80) {
      decoded += UNRESERVED[byte] ? String.fromCharCode(byte) : escape(byte);
      i += 2;
    } else {
      const length = utf8SequenceLength(raw, i, byte);
      if (length === 0) return refuse('an overlong or invalid UTF-8 escape');
      for (let k = 0; k < length; k++) decoded += escape(escapedByte(raw, i + 3 * k));
      i += 3 * length - 1;
    }
  }

  // `%252f` is `%2f` to anything that decodes twice (also when spelled `%25%32%66`).
  if (DOUBLE_ENCODED.test(decoded)) return refuse('a double-encoded escape');

  // Repeated slashes merged, as nginx and Caddy route; a dot segment (`.`, `..`, `%2e%2e`, `.%2e`)
  // is refused wherever it stands: a proxy that normalizes never sends one, and a proxy that
  // routes on the raw path (HAProxy) would go where it points while we judged where it leads.
  const parts = decoded.split('/');
  const segments: string[] = [];
  for (let k = 1; k < parts.length; k++) {
    const part = parts[k];
    if (part === '.' || part === '..') return refuse('a dot segment (. or ..)');
    if (part !== '') segments.push(part);
  }
  if (segments.length === 0) return { ok: true, path: '/' };
  return { ok: true, path: `/${segments.join('/')}${parts[parts.length - 1] === '' ? '/' : ''}` };
}

// A plain host name, IPv4 or bracketed IPv6 address, with an optional port: no user info, no
// backslash, nothing a URL parser could read as another host.
const HOST = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Whether `host` (with an optional port) is a plain host, as a proxy's `X-Forwarded-Host` must be. */
export function isPlainHost(host: string): boolean {
  return HOST.test(host);
}

// Origins of the few hosts a portal sees, as the WHATWG URL parser spells them: forward auth asks
// for one on every request, and parsing a URL costs more than the rest of the lookup.
const ORIGINS = new Map<string, string | null>();
const MAX_ORIGINS = 1000;

function originOfAuthority(scheme: string, authority: string): string | null {
  const key = `${scheme}://${authority}`;
  let origin = ORIGINS.get(key);
  if (origin !== undefined) return origin;
  origin = null;
  if (HOST.test(authority)) {
    try {
      origin = new URL(`${key}/`).origin;
    } catch {
      origin = null;
    }
  }
  if (ORIGINS.size >= MAX_ORIGINS) ORIGINS.clear();
  ORIGINS.set(key, origin);
  return origin;
}

/**
 * Splits the original URL a proxy reports (`https://tools.example.com/grafana/d/1?x=2`) into its
 * origin (as the WHATWG URL parser spells it), its normalized path and its query.
 */
export function parseOriginalUrl(value: string): OriginalUrl {
  if (value.length > MAX_ORIGINAL_URL_LENGTH) return { kind: 'invalid' };
  const separator = value.indexOf('://');
  const scheme = separator === 4 || separator === 5 ? value.slice(0, separator).toLowerCase() : '';
  if (scheme !== 'http' && scheme !== 'https') return { kind: 'invalid' };
  let end = separator + 3;
  while (end < value.length) {
    const code = value.charCodeAt(end);
    if (code === 0x2f || code === 0x3f || code === 0x23) break;
    end++;
  }
  const origin = originOfAuthority(scheme, value.slice(separator + 3, end));
  if (origin === null) return { kind: 'invalid' };
  const query = value.indexOf('?', end);
  const rawPath = query === -1 ? value.slice(end) : value.slice(end, query);
  const path = normalizeRequestPath(rawPath || '/');
  if (!path.ok) return { kind: 'ambiguous', reason: path.reason };
  return { kind: 'url', origin, path: path.path, search: query === -1 ? '' : value.slice(query) };
}
