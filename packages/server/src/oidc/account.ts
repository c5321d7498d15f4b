/**
 * Accounts and claims (oidc-provider's `findAccount`): the user behind a `sub`, and for a token of a
 * grant only while that grant still stands.
 */
import { TOOLSCTL_CLIENT_ID } from '@tools-portal/core';
import type { Account, FindAccount } from 'oidc-provider';
import { userMayUseApp } from '../services/access/forward-auth.js';
import { cliGrantUser } from '../services/openid/device-requests.js';
import { claimsUserById, grantUser, type ClaimsUser } from '../services/openid/openid-grants.js';
import { sessionStillValid } from '../services/sign-in/sessions.js';
import type { OidcDeps } from './deps.js';

/** The user id a `sub` carries (the id as a string), or undefined for anything else. */
const userIdOf = (sub: string): number | undefined => (/^[1-9][0-9]{0,9}$/.test(sub) ? Number(sub) : undefined);

/**
 * The user of a token whose grant still stands: the portal session that made the grant is alive,
 * it is this user's, and the user may still use the app. Checked on every code exchange, refresh
 * and userinfo call, so deletion, a removed grant or the end of the session stop them at once (the
 * grant list comes from the forward-auth cache: at most AUTH_CACHE_SECONDS old).
 */
async function userOfStandingGrant(
  deps: OidcDeps,
  { grantId, sub, clientId }: { grantId: string; sub: string; clientId: string },
): Promise<ClaimsUser | undefined> {
  const id = userIdOf(sub);
  if (id === undefined) return undefined;
  if (clientId === TOOLSCTL_CLIENT_ID) {
    // toolsctl is no app: its grant stands while the session its device sign-in made does.
    const cli = await cliGrantUser(deps.db, grantId, id);
    return cli && sessionStillValid(cli.session, deps.config, Date.now()) ? cli.user : undefined;
  }
  const found = await grantUser(deps.db, grantId, id);
  if (!found || found.appName !== clientId) return undefined;
  if (!sessionStillValid(found.session, deps.config, Date.now())) return undefined;
  return (await userMayUseApp(deps.authCache, found.user, found.appId)) ? found.user : undefined;
}

function account(user: ClaimsUser): Account {
  const sub = String(user.id);
  return {
    accountId: sub,
    async claims() {
      // True only when the user proved the mailbox (docs/oidc.md, `email_verified`).
      return { sub, email: user.email, email_verified: user.emailVerified, name: user.name || user.email, groups: [user.client.name] };
    },
  };
}

export function findAccount(deps: OidcDeps): FindAccount {
  return async (_ctx, sub, token) => {
    const grantId = token && 'grantId' in token ? (token.grantId as string | undefined) : undefined;
    if (grantId) {
      const user = await userOfStandingGrant(deps, { grantId, sub, clientId: String(token!.clientId) });
      return user ? account(user) : undefined;
    }
    const id = userIdOf(sub);
    const user = id === undefined ? undefined : await claimsUserById(deps.db, id);
    return user ? account(user) : undefined;
  };
}
