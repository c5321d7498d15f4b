/**
 * The interaction policy: oidc-provider's default prompts, plus the offline_access repair before an
 * interaction is saved, and `acr_values=mfa`: a session signed in with one factor must step up
 * (docs/oidc.md).
 */
import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';

/** The `acr_values` of a request (space-separated, in order of preference). */
export const requestedAcrs = (params: Record<string, unknown> | undefined): string[] =>
  String(params?.acr_values ?? '')
    .split(' ')
    .filter(Boolean);

/** The interaction reason of a step-up to two factors. */
export const ACR_MFA_REASON = 'acr_mfa';

/**
 * oidc-provider drops offline_access unless the request also says prompt=consent (check_scope).
 * Apps are first-party and get no consent screen, so the scope the request asked for is put back
 * when the client may use refresh tokens and the response type returns a code.
 */
export function restoreOfflineAccess(ctx: KoaContextWithOIDC): void {
  const { oidc } = ctx;
  if (oidc.route !== 'authorization' || !oidc.client || !oidc.params) return;
  const raw = ctx.method === 'POST' ? (oidc.body as Record<string, unknown> | undefined)?.scope : ctx.query.scope;
  if (typeof raw !== 'string' || !raw.split(' ').includes('offline_access')) return;
  if (
    !String(oidc.params.response_type ?? '')
      .split(' ')
      .includes('code') ||
    !oidc.client.grantTypeAllowed('refresh_token')
  )
    return;
  const scopes = new Set(
    String(oidc.params.scope ?? '')
      .split(' ')
      .filter(Boolean),
  );
  scopes.add('offline_access');
  oidc.params.scope = [...scopes].join(' ');
}

export function policy() {
  const prompts = interactionPolicy.base();
  const login = prompts.get('login')!;
  login.checks.add(
    new interactionPolicy.Check('restore_offline_access', 'offline_access kept without a consent prompt', 'login_required', (ctx) => {
      restoreOfflineAccess(ctx);
      return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );
  login.checks.add(
    new interactionPolicy.Check(ACR_MFA_REASON, 'two factors are required (acr_values=mfa)', 'login_required', (ctx) => {
      const wanted = requestedAcrs(ctx.oidc.params);
      const acr = ctx.oidc.session?.acr;
      if (!wanted.includes('mfa') || !ctx.oidc.session?.accountId || (acr && wanted.includes(acr))) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  return prompts;
}
