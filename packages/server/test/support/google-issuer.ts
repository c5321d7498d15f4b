/**
 * A real OpenID provider standing in for Google in tests: `oidc-provider` on an ephemeral
 * 127.0.0.1 port, one confidential client, accounts the tests create, and the smallest login and
 * consent interaction a browser can walk through (an HTML form each, posted back).
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider, type Adapter, type AdapterPayload } from 'oidc-provider';

export interface TestAccount {
  /** The subject (`sub`) of the account, also what is typed into the login form. */
  sub: string;
  email: string;
  email_verified: boolean;
  /** Google's hosted domain claim, for Google Workspace accounts. */
  hd?: string;
  name?: string;
  /** A provider that answers with an old sign-in whatever it was asked: its `auth_time` is this many seconds ago. */
  authAgeSeconds?: number;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client's redirect URI; call once the portal's address is known. */
  allowRedirectUri(uri: string): void;
  /** Creates an account; its claims may be changed later through the answer. */
  addAccount(claims: Omit<TestAccount, 'sub'> & { sub?: string }): TestAccount;
  close(): Promise<void>;
}

/** The provider's storage, in a Map per provider (the built-in one warns and is shared). */
function mapAdapter(): new (model: string) => Adapter {
  const store = new Map<string, AdapterPayload>();
  const ids = new Map<string, string>(); // `sessionUid:…` and `userCode:…` to the id they name
  const byGrant = new Map<string, string[]>();
  return class MapAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload) {
      const key = this.key(id);
      if (this.model === 'Session') ids.set(`sessionUid:${payload.uid}`, id);
      if (typeof payload.grantId === 'string') byGrant.set(payload.grantId, [...(byGrant.get(payload.grantId) ?? []), key]);
      if (typeof payload.userCode === 'string') ids.set(`userCode:${payload.userCode}`, id);
      store.set(key, payload);
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUid(uid: string) {
      const id = ids.get(`sessionUid:${uid}`);
      return id === undefined ? undefined : this.find(id);
    }
    async findByUserCode(userCode: string) {
      const id = ids.get(`userCode:${userCode}`);
      return id === undefined ? undefined : this.find(id);
    }
    async consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const key of byGrant.get(grantId) ?? []) store.delete(key);
      byGrant.delete(grantId);
    }
  };
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, action: string, fields: string): string {
  return `<!doctype html><title>${title}</title><form method="post" action="${escapeHtml(action)}">${fields}<button>${title}</button></form>`;
}

async function formBody(request: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

/** Starts the provider; on an ephemeral port unless `port` is given. */
export async function startTestProvider(port = 0): Promise<TestProvider> {
  const accounts = new Map<string, TestAccount>();
  const redirectUris: string[] = [];
  const clientId = `portal-${randomUUID()}`;
  const clientSecret = randomUUID();
  let provider: Provider | undefined;
  let handle: http.RequestListener | undefined;

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };

  const build = () =>
    new Provider(issuer, {
      adapter: mapAdapter(),
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [signingKey] },
      cookies: { keys: [randomUUID()] },
      claims: { openid: ['sub'], email: ['email', 'email_verified', 'hd'], profile: ['name'] },
      // Like Google: the ID token itself carries the email claims.
      conformIdTokenClaims: false,
      pkce: { required: () => true, methods: ['S256'] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      async findAccount(_ctx: unknown, id: string) {
        const account = accounts.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          async claims() {
            const { sub, email, email_verified, hd, name } = account;
            return { sub, email, email_verified, name: name ?? email, ...(hd ? { hd } : {}) };
          },
        };
      },
    });

  async function interaction(request: http.IncomingMessage, response: http.ServerResponse, op: string | undefined): Promise<void> {
    if (!provider) throw new Error('no redirect URI registered');
    const details = await provider.interactionDetails(request, response);
    const base = `/interaction/${details.uid}`;
    if (request.method === 'GET') {
      const html =
        details.prompt.name === 'login' ? page('Sign in', `${base}/login`, '<input name="login" placeholder="account">') : page('Allow', `${base}/confirm`, '');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    if (op === 'login') {
      const login = (await formBody(request)).get('login') ?? '';
      if (!accounts.has(login)) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('unknown account');
        return;
      }
      const age = accounts.get(login)!.authAgeSeconds;
      const ts = age === undefined ? undefined : Math.floor(Date.now() / 1000) - age;
      await provider.interactionFinished(request, response, { login: { accountId: login, ts } }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = details.session?.accountId as string;
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId, clientId: details.params.client_id as string });
    if (!grant) throw new Error('grant vanished');
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    await provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  server.on('request', (request, response) => {
    const match = /^\/interaction\/[^/?]+(?:\/(login|confirm))?(?:\?|$)/.exec(request.url ?? '');
    if (match && provider) {
      interaction(request, response, match[1]).catch((error: Error) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`interaction failed: ${error.message}`);
      });
      return;
    }
    if (!handle) {
      response.writeHead(503).end();
      return;
    }
    handle(request, response);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    allowRedirectUri(uri) {
      redirectUris.push(uri);
      provider = build();
      handle = provider.callback();
    },
    addAccount(claims) {
      const account: TestAccount = { ...claims, sub: claims.sub ?? `acct-${randomUUID()}` };
      accounts.set(account.sub, account);
      return account;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
