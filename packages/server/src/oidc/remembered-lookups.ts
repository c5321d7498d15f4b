/**
 * What a userinfo call looks up besides its token's row (oidc/adapter.ts remembers that), kept in
 * the auth cache for at most AUTH_CACHE_SECONDS, the bound the token's row and forward auth's
 * sessions already have (docs/oidc.md, Sessions and revocation):
 *
 * - oidc-provider's session binding: an access token is good while the provider session it was
 *   issued in still holds its grant (`AccessToken.find` reads that session). Once the check has
 *   passed for a token it is remembered for that token; the token's own row, and with it its
 *   expiry, is still checked on every call.
 * - the portal's standing grant (oidc/account.ts): the user of the grant, the portal session it was
 *   made under, and that the user may still use the app.
 *
 * Only what held is remembered, and by the token or grant it held for: a new sign-in gets new
 * tokens and grants, so nothing remembered can refuse it. A logout, a removed grant or a deleted
 * user through this instance clears the cache at once (every change does); through another, it
 * is seen here within the bound. Code exchanges and refreshes never use these: they issue tokens.
 * (The revocation endpoint finds tokens the same way: revoking one whose session just ended elsewhere
 * revokes it all the same. Introspection is off.)
 */
import type Provider from 'oidc-provider';
import type { AuthCache } from '../services/access/auth-cache.js';

type FindAccessToken = (value: unknown, options?: object) => Promise<unknown>;

export function rememberSessionBinding(provider: Provider, memory: Pick<AuthCache, 'boundAccessTokens'>): void {
  const AccessToken = provider.AccessToken as unknown as { find: FindAccessToken };
  const find: FindAccessToken = AccessToken.find.bind(AccessToken);
  // oidc-provider calls it with options only to skip checks (e.g. `ignoreSessionBinding`): as it is, then.
  AccessToken.find = async (value, options) => {
    if (options !== undefined || typeof value !== 'string') return find(value, options);
    const bound = await memory.boundAccessTokens.getFound(value, async () => (await find(value)) !== undefined);
    return bound ? find(value, { ignoreSessionBinding: true }) : undefined;
  };
}
