/** CORS and cache headers where oidc-provider's defaults differ from docs/oidc.md. */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { ROUTES } from './paths.js';
import { JWKS_MAX_AGE_SECONDS } from './signing-keys.js';

/**
 * oidc-provider's `clientBasedCORS`: whether a browser at `origin` may call the token, userinfo or
 * revocation endpoint for `client` (docs/oidc.md, "Single-page apps"). Only public clients, which
 * run in the browser by design, and only from the origin of one of their registered redirect URIs;
 * a confidential client's secret never belongs in a browser, so it gets no CORS at all.
 */
export function corsAllowed(origin: string, client: { clientAuthMethod?: string; redirectUris?: string[] }): boolean {
  if (client.clientAuthMethod !== 'none') return false;
  return (client.redirectUris ?? []).some((uri) => {
    try {
      return new URL(uri).origin === origin;
    } catch {
      return false;
    }
  });
}

/**
 * Headers oidc-provider leaves out: `Pragma: no-cache` beside its `Cache-Control: no-store` on
 * every token answer (RFC 6749 §5.1, for HTTP/1.0 caches), errors included; and a JWKS relying
 * parties may cache for JWKS_MAX_AGE_SECONDS, well inside the time a retired key stays published.
 */
export async function cacheHeaders(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  if (ctx.path === ROUTES.token) ctx.set('Pragma', 'no-cache');
  await next();
  if (ctx.path === ROUTES.jwks && ctx.status === 200) ctx.set('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
}
