/**
 * The provider's sign-in session bound to the portal session: it never outlives the portal's, and a
 * browser with a portal session needs no screen of the provider's (docs/oidc.md).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Principal } from '../services/sign-in/sessions.js';
import { acrOf } from '../services/sign-in/sign-in.js';

/** The portal session of a request to the provider, set by the Koa layer (oidc/routes.ts). */
const portalPrincipals = new WeakMap<IncomingMessage, Principal | null>();

export function setPortalPrincipal(request: IncomingMessage, principal: Principal | null): void {
  portalPrincipals.set(request, principal);
}

export function portalPrincipalOf(ctx: { req: IncomingMessage }): Principal | null {
  return portalPrincipals.get(ctx.req) ?? null;
}

/**
 * The prefix of a provider session's uid under a portal session: what binds the two. Each
 * provider session still gets a uid of its own (codes find their session by it: two sign-ins
 * in two tabs must not share one).
 */
const boundPrefix = (principal: Principal) => `portal-${principal.sessionId}-${principal.user.id}-`;

/**
 * The provider's sign-in session follows the portal session: with one, the provider's session is
 * that user's (made on the spot, so `prompt=none` gets a code); without one, it is empty; a
 * provider session made under another portal session is never used.
 */
export function bindSessionToPortal(provider: Provider): void {
  const Session = provider.Session as unknown as {
    get(ctx: KoaContextWithOIDC): Promise<SessionLike>;
    new (payload?: Record<string, unknown>): SessionLike;
  };
  const original = Session.get.bind(Session);
  Session.get = async function get(ctx: KoaContextWithOIDC) {
    const session = await original(ctx);
    const principal = portalPrincipalOf(ctx);
    if (!principal) {
      if (!session.accountId) return session;
      return register(ctx, new Session());
    }
    const prefix = boundPrefix(principal);
    if (session.uid?.startsWith(prefix) && session.accountId === String(principal.user.id)) return Object.assign(session, signInOf(principal));
    const uid = `${prefix}${randomBytes(12).toString('base64url')}`;
    return register(ctx, new Session({ uid, accountId: String(principal.user.id), ...signInOf(principal) }));
  };
  const register = (ctx: KoaContextWithOIDC, session: SessionLike) => {
    if (ctx.oidc) ctx.oidc.entity('Session', session as never);
    return session;
  };
}

interface SessionLike {
  uid: string;
  accountId?: string;
}

/**
 * What the provider's session tells apps of the sign-in (`auth_time`, `amr`, `acr`): always the
 * portal session's, when its user really signed in or last confirmed it, never the request's.
 */
export function signInOf(principal: Principal): { loginTs: number; amr?: string[]; acr: string } {
  const amr = principal.amr ?? [];
  return { loginTs: Math.floor((principal.signedInAt ?? Date.now()) / 1000), ...(amr.length > 0 ? { amr } : {}), acr: acrOf(amr) };
}
