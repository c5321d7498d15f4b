/**
 * A relying party and a browser for tests of the portal's OpenID provider: openid-client as the
 * app's library, and a small cookie jar that follows the provider's redirects the way a browser
 * does, stopping where a browser would leave the portal (the app's redirect URI) or show a screen.
 */
import http from 'node:http';
import * as oidc from 'openid-client';

/** Cookies of one browser, by name (paths are ignored: every cookie goes to every portal URL). */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', this.cookieHeader());
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.take(response);
    return response;
  }

  /**
   * A GET over node:http with exactly the headers given (fetch would send its own
   * `sec-fetch-mode: cors`, which relying parties such as mod_auth_openidc treat as not a page).
   */
  async navigationRequest(url: string, headers: Record<string, string>): Promise<Response> {
    const all: Record<string, string> = { ...headers };
    if (this.cookies.size > 0) all.cookie = this.cookieHeader();
    const { status, head, body } = await new Promise<{ status: number; head: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = http.get(url, { headers: all, insecureHTTPParser: true }, (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk) => (text += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, head: answer.headers, body: text }));
      });
      request.on('error', reject);
      request.setTimeout(10_000, () => request.destroy(new Error(`timeout: ${url}`)));
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(head)) {
      for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, each);
    }
    const response = new Response(status === 204 || status === 304 ? null : body, { status, headers: responseHeaders });
    this.take(response);
    return response;
  }

  /**
   * Follows redirects within the portal (at most 10); answers the first URL outside it, the
   * portal's login screen, or the last page's response when there is no redirect.
   */
  async navigate(url: string, init: RequestInit = {}): Promise<{ url: string; response: Response }> {
    let current = url;
    let response = await this.request(current, init);
    for (let hop = 0; hop < 10; hop++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
      current = new URL(location, current).href;
      if (!current.startsWith(this.origin) || current.includes('/auth/#/')) return { url: current, response };
      response = await this.request(current);
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

export interface RelyingParty {
  config: oidc.Configuration;
  redirectUri: string;
  /** Starts a sign-in: the authorization URL and what the callback must check. */
  start(extra?: Record<string, string>, options?: { pkce?: boolean }): Promise<{ url: string; state: string; nonce: string; verifier?: string }>;
}

export async function relyingParty(
  issuer: string,
  clientId: string,
  secret: string | undefined,
  redirectUri: string,
  auth: 'basic' | 'post' | 'none' = secret ? 'basic' : 'none',
): Promise<RelyingParty> {
  const clientAuth = auth === 'basic' ? oidc.ClientSecretBasic(secret) : auth === 'post' ? oidc.ClientSecretPost(secret) : oidc.None();
  const config = await oidc.discovery(new URL(issuer), clientId, { redirect_uris: [redirectUri] }, clientAuth, {
    execute: [oidc.allowInsecureRequests],
  });
  return {
    config,
    redirectUri,
    async start(extra = {}, options = {}) {
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const pkce = options.pkce ?? true;
      const verifier = pkce ? oidc.randomPKCECodeVerifier() : undefined;
      const params: Record<string, string> = { redirect_uri: redirectUri, scope: 'openid email profile groups', state, nonce, ...extra };
      if (verifier) Object.assign(params, { code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' });
      return { url: oidc.buildAuthorizationUrl(config, params).href, state, nonce, verifier };
    },
  };
}

/** The code flow with PKCE in a browser signed in to the portal at `portalUrl` with `token`: the tokens `rp` gets. */
export async function signInThrough(rp: RelyingParty, portalUrl: string, token: string, extra: Record<string, string> = {}) {
  const start = await rp.start(extra);
  const browser = new Browser(portalUrl);
  browser.cookies.set('accesstoken', token);
  const { url } = await browser.navigate(start.url);
  return oidc.authorizationCodeGrant(rp.config, new URL(url), { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
}

export { oidc };
