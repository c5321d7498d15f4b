/** The provider's HTML answers, ours (oidc/pages.ts): errors, the logout confirmation, signed out. */
import type { Configuration } from 'oidc-provider';
import { errorPage, logoutPage, signedOutPage, withFormAction, type Site } from './pages.js';

type RpInitiatedLogout = NonNullable<NonNullable<Configuration['features']>['rpInitiatedLogout']>;

export function renderErrorFor(site: Site): NonNullable<Configuration['renderError']> {
  return async (ctx, out) => {
    ctx.type = 'html';
    ctx.body = errorPage(site, out as unknown as Record<string, string | undefined>);
  };
}

export function logoutPagesFor(site: Site): Pick<RpInitiatedLogout, 'logoutSource' | 'postLogoutSuccessSource'> {
  return {
    async logoutSource(ctx, form) {
      const target = (ctx.oidc.session?.state as { postLogoutRedirectUri?: string } | undefined)?.postLogoutRedirectUri;
      withFormAction(ctx, target);
      ctx.type = 'html';
      ctx.body = logoutPage(site, { form, clientId: ctx.oidc.client?.clientId });
    },
    async postLogoutSuccessSource(ctx) {
      ctx.type = 'html';
      ctx.body = signedOutPage(site);
    },
  };
}
