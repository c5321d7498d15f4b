/**
 * Where the browser may go after login (docs/product.md, Redirects): somewhere relative to the portal, or the
 * origin of an app the signed-in user may use (the caller names those origins). Anything else falls back to
 * the default target.
 */

/** docs/product.md §9. */
export const DEFAULT_REDIRECT = '/auth/#/applist/';

// Whitespace, controls and backslashes are where URL parsers and browsers disagree.
const AMBIGUOUS = /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\\]/;

// A relative target is followed only in plain form: percent-escapes, colons and `//` are how
// payloads smuggle another origin past a later decoder or proxy (testdata/openredirects.txt).
const PLAIN_RELATIVE = /^\/[A-Za-z0-9\-._~!$&'()*+,;=@/?#]*$/;

export interface RedirectPolicy {
  /** The portal's own origin, e.g. `https://tools.example.com`. */
  portalOrigin: string;
  /** Origins the browser may go to besides the portal's: those of the apps the signed-in user may use. */
  appOrigins: Iterable<string>;
}

export function safeRedirect(target: string | null | undefined, policy: RedirectPolicy): string {
  if (!target || target.length > 2000 || AMBIGUOUS.test(target)) return DEFAULT_REDIRECT;
  const portal = new URL(policy.portalOrigin);
  if (target.startsWith('/')) {
    if (!PLAIN_RELATIVE.test(target) || target.includes('//')) return DEFAULT_REDIRECT;
    const url = parseUrl(target, portal.origin);
    if (!url || url.origin !== portal.origin) return DEFAULT_REDIRECT;
    return url.pathname + url.search + url.hash;
  }
  const url = parseUrl(target);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return DEFAULT_REDIRECT;
  if (url.username || url.password) return DEFAULT_REDIRECT;
  // Only the scheme-and-authority form counts: `http:evil.com` and friends are refused.
  if (!target.toLowerCase().startsWith(`${url.protocol}//`)) return DEFAULT_REDIRECT;
  const allowed = new Set([portal.origin, ...policy.appOrigins]);
  return allowed.has(url.origin) ? url.href : DEFAULT_REDIRECT;
}

/** The origin of an absolute http(s) URL, or null. */
export function originOf(value: string): string | null {
  const url = parseUrl(value);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : null;
}

function parseUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}
