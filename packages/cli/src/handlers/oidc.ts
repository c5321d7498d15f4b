import type { OidcClientCreated, OidcClientSettings, OidcSigningAlg } from '@tools-portal/core';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { done } from '../present.js';
import { findApp } from '../resolve.js';

export interface AppClientOptions {
  redirectUri: string[];
  postLogoutRedirectUri: string[];
  public?: boolean;
  device?: boolean;
  alg: OidcSigningAlg;
  off?: boolean;
}

function settingsRecord(settings: OidcClientSettings | OidcClientCreated, message?: string): Result {
  const secret = 'client_secret' in settings ? settings.client_secret : undefined;
  return {
    json: settings,
    // --quiet: the secret when one was just issued (for scripts), else the client id.
    quiet: [secret ?? settings.client_id],
    record: [
      ['client_id', settings.client_id],
      ...(secret ? ([['client_secret', secret]] as Array<[string, string]>) : []),
      ['discovery_url', settings.discovery_url],
      ['redirect_uris', settings.redirect_uris.join(' ')],
      ['post_logout_redirect_uris', settings.post_logout_redirect_uris.join(' ')],
      ['public', settings.public],
      ['device', settings.device],
      ['id_token_signed_response_alg', settings.id_token_signed_response_alg],
    ],
    message,
  };
}

/** `apps oidc APP`: enable (with --redirect-uri), show (without), or turn off (--off). */
export async function appClient(ctx: Context, ref: string, options: AppClientOptions): Promise<Result> {
  const enabling = options.redirectUri.length > 0;
  if (options.off && (enabling || options.public || options.device || options.postLogoutRedirectUri.length > 0)) {
    throw new UsageError('--off takes no other settings');
  }
  if (!enabling && (options.public || options.device || options.postLogoutRedirectUri.length > 0)) {
    throw new UsageError("give the app's --redirect-uri to enable it (settings are replaced as a whole)");
  }
  const api = await ctx.client();
  const app = await findApp(api, ref);
  if (options.off) {
    await api.apps.oidc.disable(app.id);
    return done(`turned off OpenID Connect for app ${app.name}`, { app: app.name, oidc: false }, [app.id]);
  }
  if (!enabling) return settingsRecord(await api.apps.oidc.get(app.id));
  const created = await api.apps.oidc.enable(app.id, {
    redirect_uris: options.redirectUri,
    post_logout_redirect_uris: options.postLogoutRedirectUri,
    public: options.public ?? false,
    device: options.device ?? false,
    id_token_signed_response_alg: options.alg,
  });
  const note = created.client_secret ? ' Copy the client secret now: it is shown this once.' : ' A public client has no secret and must use PKCE.';
  return settingsRecord(created, `app ${app.name} is an OpenID Connect client.${note}`);
}

export async function rotateKeys(ctx: Context): Promise<Result> {
  const api = await ctx.client();
  const rotation = await api.oidc.rotateKeys();
  return {
    json: rotation,
    quiet: rotation.signing,
    record: [
      ['signing', rotation.signing.join(' ')],
      ['published', rotation.published.join(' ')],
    ],
    message: 'rotated the OpenID Connect signing keys; the old ones stay published until their tokens have expired',
  };
}
