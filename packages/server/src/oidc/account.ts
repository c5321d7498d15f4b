/**
 * Accounts and claims (oidc-provider's `findAccount`): the user behind a `sub`, and for a token of a
 * grant only while that grant still stands.
 */
import { TOOLSCTL_CLIENT_ID } from '@tools-portal/core';
import type { Account, FindAccount } from 'oidc-provider';
import type { UserAccess } from '../services/access/app-access.js';
import { accessToApp } from '../services/access/forward-auth.js';
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
async function userOfStandingGrant(deps: OidcDeps, { grantId, sub, clientId }: { grantId: string; sub: string; clientId: string }): Promise<Standing> {
  const id = userIdOf(sub);
  if (id === undefined) return undefined;
  if (clientId === TOOLSCTL_CLIENT_ID) {
    // toolsctl is no app: its grant stands while the session its device sign-in made does.
    const cli = await cliGrantUser(deps.db, grantId, id);
    return cli && sessionStillValid(cli.session, deps.config, Date.now()) ? { user: cli.user } : undefined;
  }
  const found = await grantUser(deps.db, grantId, id);
  if (!found || found.appName !== clientId) return undefined;
  if (!sessionStillValid(found.session, deps.config, Date.now())) return undefined;
  const access = await accessToApp(deps.authCache, found.user, found.appId);
  return access ? { user: found.user, appId: found.appId, access } : undefined;
}

/**
 * `groups`: the client's name, then the user's unexpired teams (alphabetical); `roles` (scope
 * `roles`): the user's roles for the token's app, sorted. Both from the auth cache, so a change of
 * team, membership, role or grant shows within AUTH_CACHE_SECONDS (docs/oidc.md).
 */
function account(deps: OidcDeps, { user, appId, access: judgedWith }: { user: ClaimsUser; appId?: number; access?: UserAccess }): Account {
  const sub = String(user.id);
  return {
    accountId: sub,
    // Made of the auth cache's entries: oidc/userinfo-answers.ts keeps an answer no longer than
    // they are kept, and names each of them.
    async claims() {
      // The access the grant's standing was judged with, when it was (the same entry of the auth
      // cache, or with AUTH_CACHE_SECONDS=0 the same read: not a second one).
      const access = judgedWith ?? (await deps.authCache.accessOf(user.id));
      const roles = appId === undefined ? [] : [...(access.apps.get(appId)?.roles ?? [])];
      // True only when the user proved the mailbox (docs/oidc.md, `email_verified`).
      return {
        sub,
        email: user.email,
        email_verified: user.emailVerified,
        name: user.name || user.email,
        groups: [user.client.name, ...access.teams.map((team) => team.name)],
        roles,
      };
    },
  };
}

export function findAccount(deps: OidcDeps): FindAccount {
  return async (ctx, sub, token) => {
    const grantId = token && 'grantId' in token ? (token.grantId as string | undefined) : undefined;
    if (grantId) {
      const of = { grantId, sub, clientId: String(token!.clientId) };
      // A userinfo call may use what held within AUTH_CACHE_SECONDS (oidc/remembered-lookups.ts);
      // a code exchange or refresh issues tokens, so it reads the grant's standing anew.
      const standing = ctx.oidc.route === 'userinfo' ? await rememberedStanding(deps, of) : await userOfStandingGrant(deps, of);
      return standing ? account(deps, standing) : undefined;
    }
    const id = userIdOf(sub);
    const user = id === undefined ? undefined : await claimsUserById(deps.db, id);
    return user ? account(deps, { user }) : undefined;
  };
}

/** A token's grant that still stands: its user, the app, and the user's access it was judged with. */
type Standing = { user: ClaimsUser; appId?: number; access?: UserAccess } | undefined;

/** Where the standing of a token's grant is remembered in the auth cache. */
export const standingKey = (of: { grantId: string; sub: string; clientId: string }) => `${of.grantId}\u0000${of.sub}\u0000${of.clientId}`;

async function rememberedStanding(deps: OidcDeps, of: { grantId: string; sub: string; clientId: string }): Promise<Standing> {
  const { standingGrants } = deps.authCache;
  const key = standingKey(of);
  const standing = (await standingGrants.getFound(key, () => userOfStandingGrant(deps, of))) as Standing;
  // That the user may use the app came from the user's remembered access (accessOf), which
  // may be older than this entry: the standing holds no longer than that does.
  if (standing?.appId !== undefined) standingGrants.cap(key, deps.authCache.accessExpiry(standing.user.id));
  return standing;
}
