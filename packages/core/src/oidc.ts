/**
 * Apps as OpenID Connect clients (docs/oidc.md): the settings an admin sends, their validation,
 * and what the API answers. The client id is the app's name.
 */
import { z } from 'zod';
import { OIDC_SIGNING_ALGS } from './oidc-names.js';
import { MAX_URL_LENGTH } from './validation.js';

export { OIDC_PREFIX, OIDC_SCOPES, OIDC_SIGNING_ALGS, type OidcSigningAlg } from './oidc-names.js';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why a redirect URI is refused, or null: absolute, https (http only on loopback), no fragment. */
export function redirectUriProblem(value: string): string | null {
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return 'must not contain spaces, control characters or backslashes';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return 'must use https (plain http only on 127.0.0.1, localhost or [::1])';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (value.includes('#')) return 'must not contain a fragment';
  return null;
}

const redirectUri = z
  .string({ error: 'must be a string' })
  .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
  .superRefine((value, ctx) => {
    const problem = redirectUriProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const oidcClientInput = z.object({
  redirect_uris: z.array(redirectUri, { error: 'must be a list of URLs' }).min(1, { error: 'must hold at least one URL' }).max(20),
  post_logout_redirect_uris: z.array(redirectUri, { error: 'must be a list of URLs' }).max(20).default([]),
  public: z.boolean({ error: 'must be true or false' }).default(false),
  id_token_signed_response_alg: z.enum(OIDC_SIGNING_ALGS, { error: 'must be RS256 or ES256' }).default('RS256'),
  device: z.boolean({ error: 'must be true or false' }).default(false),
});
export type OidcClientInput = z.input<typeof oidcClientInput>;

/** `GET /app/{id}/oidc`: the settings, never a secret. */
/** `GET /app/{id}/oidc`: an app's OpenID Connect client settings, never its secret. */
export const oidcClientSettingsAnswer = z.strictObject({
  client_id: z.string(),
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  public: z.boolean(),
  id_token_signed_response_alg: z.enum(OIDC_SIGNING_ALGS),
  device: z.boolean().describe('whether the app may use the device grant (RFC 8628)'),
  discovery_url: z.string().describe('{PUBLIC_URL}/.well-known/openid-configuration'),
  createdTimestamp: z.string().describe('ISO 8601 timestamp'),
  updatedTimestamp: z.string().describe('ISO 8601 timestamp'),
});
export type OidcClientSettings = z.infer<typeof oidcClientSettingsAnswer>;

/** `POST /app/{id}/oidc`: the settings and, for a confidential client, its secret (shown this once). */
export const oidcClientCreatedAnswer = oidcClientSettingsAnswer.extend({ client_secret: z.string().optional() });
export type OidcClientCreated = z.infer<typeof oidcClientCreatedAnswer>;

/** `POST /oidc/keys/rotate`. */
export const oidcKeyRotationAnswer = z.strictObject({
  signing: z.array(z.string()).describe('key ids now used for signing'),
  published: z.array(z.string()).describe('key ids still published for tokens signed before'),
});
export type OidcKeyRotation = z.infer<typeof oidcKeyRotationAnswer>;
