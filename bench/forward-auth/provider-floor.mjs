// Rows 17 and 18 of forward-auth.bench.mjs: oidc-provider alone, with no portal around it (an
// in-memory store, one confidential client with BENCH_CLIENT_SECRET, an RS256 key, an account whose
// claims are a constant): what a code exchange and a userinfo call cost in the library itself,
// beside rows 7 and 8. Codes are made in this process (`GET /codes?n=`), not through a sign-in.
// Prints {"url"} on its first line.
import crypto from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';

const CLIENT_ID = 'floor';
const REDIRECT_URI = 'http://127.0.0.1:9/callback';
const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });

/** oidc-provider's adapter contract over a Map, as its own development adapter keeps state. */
const store = new Map();
class MemoryAdapter {
  constructor(model) {
    this.model = model;
  }
  key(id) {
    return `${this.model}:${id}`;
  }
  async upsert(id, payload) {
    store.set(this.key(id), { ...payload });
  }
  async find(id) {
    return store.get(this.key(id));
  }
  async findByUid() {
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id) {
    const payload = store.get(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    store.delete(this.key(id));
  }
  async revokeByGrantId() {}
}

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
const provider = new Provider(issuer, {
  adapter: MemoryAdapter,
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: process.env.BENCH_CLIENT_SECRET,
      redirect_uris: [REDIRECT_URI],
      response_types: ['code'],
      grant_types: ['authorization_code'],
    },
  ],
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'floor', use: 'sig', alg: 'RS256' }] },
  cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
  features: { devInteractions: { enabled: false } },
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: 'bench@example.com', email_verified: true, name: 'Bench' }) }),
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  pkce: { required: () => false },
  // Set, as a deployment sets them, so the library does not print a notice for each.
  ttl: { AccessToken: 3600, AuthorizationCode: 60, Grant: 3600, IdToken: 3600, Interaction: 3600, Session: 3600 },
});

async function codes(n) {
  const made = [];
  for (let i = 0; i < n; i++) {
    const grant = new provider.Grant({ accountId: '1', clientId: CLIENT_ID });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    const authTime = Math.floor(Date.now() / 1000);
    made.push(
      await new provider.AuthorizationCode({
        accountId: '1',
        clientId: CLIENT_ID,
        grantId,
        redirectUri: REDIRECT_URI,
        scope: 'openid email profile',
        authTime,
      }).save(),
    );
  }
  return made;
}

const callback = provider.callback();
server.on('request', (request, response) => {
  if (!request.url.startsWith('/codes?')) return callback(request, response);
  const n = Math.min(10_000, Math.max(1, Number(new URL(request.url, issuer).searchParams.get('n')) || 1));
  codes(n).then((made) => response.setHeader('content-type', 'application/json').end(JSON.stringify(made)));
});
process.stdout.write(`${JSON.stringify({ url: issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
