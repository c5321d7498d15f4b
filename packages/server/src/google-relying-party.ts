/**
 * The OpenID Connect client for Google (or the issuer OIDC_ISSUER names): builds the
 * authorization URL of a sign-in and turns the callback into verified ID-token claims. Discovery
 * runs at the first sign-in, not at start, so the portal starts while the issuer is unreachable.
 */
import { ApiError } from '@tools-portal/core';
import * as oidc from 'openid-client';
import { isLoopbackHttp } from './config.js';

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  issuer: string;
}

/** The secrets of one sign-in; the caller keeps them until the callback. */
export interface GoogleChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const SCOPES = 'openid email profile';

export function newChecks(): GoogleChecks {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
}

export class GoogleRelyingParty {
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    private readonly settings: GoogleSettings,
    private readonly redirectUri: string,
  ) {}

  private discover(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    // Plain HTTP is allowed for an issuer on this machine only (the test provider), never a real one.
    this.configuration ??= oidc
      .discovery(new URL(issuer), clientId, clientSecret, undefined, isLoopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : {})
      .catch((error: unknown) => {
        // Try again at the next sign-in rather than remember an outage.
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** `confirm`: the user must sign in to Google again (prompt=login, max_age=0), for Confirm it's you. */
  async authorizationUrl(checks: GoogleChecks, confirm = false): Promise<URL> {
    const configuration = await this.discover().catch((error: unknown) => {
      throw translateOidcError(error);
    });
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: SCOPES,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      ...(confirm ? { prompt: 'login', max_age: '0' } : {}),
    });
  }

  /**
   * Redeems the code of the callback URL; answers the claims of the ID token once state, nonce,
   * issuer, audience and expiry check out. `confirm`: its `auth_time` must be present and fresh
   * (openid-client's max_age check, with its clock tolerance).
   */
  async verifiedClaims(callbackUrl: URL, checks: GoogleChecks, confirm = false): Promise<oidc.IDToken> {
    try {
      const tokens = await oidc.authorizationCodeGrant(await this.discover(), callbackUrl, {
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        pkceCodeVerifier: checks.codeVerifier,
        idTokenExpected: true,
        ...(confirm ? { maxAge: 0 } : {}),
      });
      const claims = tokens.claims();
      if (!claims) throw new ApiError('unauthenticated', 'the token response carries no ID token');
      return claims;
    } catch (error) {
      throw translateOidcError(error);
    }
  }
}

/** openid-client's errors as domain errors whose message says what went wrong, for the event log. */
function translateOidcError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof oidc.AuthorizationResponseError) return new ApiError('unauthenticated', `the provider answered ${error.error}`);
  if (error instanceof oidc.ResponseBodyError) return new ApiError('unauthenticated', `the token request was refused: ${error.error}`);
  // openid-client says "invalid response encountered"; the check that failed is the cause.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (error instanceof oidc.ClientError && !isNetworkFailure(error)) return new ApiError('unauthenticated', `the provider's answer failed a check: ${message}`);
  return new ApiError('unavailable', `the provider cannot be reached: ${message}`);
}

function isNetworkFailure(error: Error): boolean {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    // fetch() fails with a TypeError whose cause carries the socket error (ECONNREFUSED, ...).
    if (cause instanceof TypeError || ('code' in cause && typeof cause.code === 'string' && /^E[A-Z]+$/.test(cause.code))) return true;
  }
  return false;
}
