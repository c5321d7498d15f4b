/**
 * oidc-provider's storage on Knex, so that SQLite and PostgreSQL hold its state and every
 * instance sees the same codes, tokens, grants, interactions and sessions. One row per model and
 * id; rows past `expires_at` are never answered and are swept. Clients are not stored here: the
 * `Client` model reads the apps enabled as OpenID clients (oidc/clients.ts).
 *
 * Access and refresh tokens are kept as session tokens are (docs/security.md, Stolen database):
 * their row's id is the SHA-256 of the token and the stored payload leaves the token out, so the
 * database holds nothing that works as one (a `toolsctl` access token is a credential of the
 * REST API). The token presented is hashed to find its row and put back into the payload read.
 */
import type { Knex } from 'knex';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import { LITERAL, preparedSelect, readPrepared } from '../db/direct-reads.js';
import { preparedWrite, runPrepared } from '../db/prepared-writes.js';
import type { AuthCache } from '../services/access/auth-cache.js';
import { sha256 } from '../services/support/secrets.js';
import { clientMetadata } from './clients.js';

const TABLE = 'oidc_payloads';
const ACCESS_TOKEN = 'AccessToken';
/** The models whose ids are bearer secrets that outlive a few minutes: stored hashed. */
const HASHED_MODELS = new Set([ACCESS_TOKEN, 'RefreshToken']);
/**
 * A device code's row outlives the code by this much, so that a device polling after the code's
 * end is told `expired_token` (the provider judges the code's own expiry) rather than that no such
 * code exists.
 */
export const DEVICE_CODE_GRACE_MS = 10 * 60 * 1000;
// How often one instance deletes expired rows (each instance does it; the delete is idempotent).
const SWEEP_INTERVAL_MS = 60_000;

export interface AdapterOptions {
  db: Knex;
  now?: () => number;
  /**
   * Where access tokens' rows are remembered for at most AUTH_CACHE_SECONDS (services/access/auth-cache.ts):
   * a userinfo call then does not read its token again. A token revoked through this instance is
   * forgotten at once (here and in the other workers), through another within that bound.
   */
  memory?: Pick<AuthCache, 'accessTokens' | 'forgetAccessToken' | 'clear'>;
}

type Row = { payload: string; expires_at: number | string | null; consumed_at: number | string | null };
const COLUMNS = ['payload', 'expires_at', 'consumed_at'];

// Read on every call to the provider (a userinfo call reads a token, its session and its grant):
// compiled once, and run on SQLite's direct connection (db/direct-reads.ts).
const BY_ID = preparedSelect((db, model: string, id: string) => db(TABLE).where({ model, id }).select(COLUMNS).limit(1, LITERAL));
const BY_UID = preparedSelect((db, model: string, uid: string) =>
  db(TABLE).where({ model, uid }).orderBy('expires_at', 'desc').select(COLUMNS).limit(1, LITERAL),
);
const BY_USER_CODE = preparedSelect((db, model: string, userCode: string) => db(TABLE).where({ model, user_code: userCode }).select(COLUMNS).limit(1, LITERAL));

// Written on every authorization request and code exchange: compiled once as well, and run on a
// pool connection without Knex's runner (db/prepared-writes.ts), on SQLite and PostgreSQL.
const MERGED = ['payload', 'grant_id', 'uid', 'user_code', 'expires_at'];
const UPSERT = preparedWrite(
  (db, model: string, id: string, payload: string, grantId: string | null, uid: string | null, userCode: string | null, expiresAt: number | null) =>
    db(TABLE).insert({ model, id, payload, grant_id: grantId, uid, user_code: userCode, expires_at: expiresAt }).onConflict(['model', 'id']).merge(MERGED),
);
const CONSUME = preparedWrite((db, consumedAt: number, model: string, id: string) =>
  db(TABLE).where({ model, id }).whereNull('consumed_at').update({ consumed_at: consumedAt }),
);
const DESTROY = preparedWrite((db, model: string, id: string) => db(TABLE).where({ model, id }).delete());
const REVOKE_GRANT = preparedWrite((db, grantId: string) => db(TABLE).where({ grant_id: grantId }).delete());

/** The adapter class oidc-provider instantiates once per model name. */
export function knexAdapter(options: AdapterOptions): new (model: string) => Adapter {
  const { db, memory } = options;
  const now = options.now ?? Date.now;
  let lastSweep = 0;

  async function sweep(): Promise<void> {
    const at = now();
    if (at - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = at;
    await db(TABLE).where('expires_at', '<', at).delete();
    await db('oidc_grant_sessions').where('expires_at', '<', at).delete();
    await db('oidc_cli_grants').where('expires_at', '<', at).delete();
    await db('oidc_device_requests').where('expires_at', '<', at).delete();
  }

  const parse = (row: Row | undefined): AdapterPayload | undefined => {
    if (!row) return undefined;
    if (row.expires_at !== null && Number(row.expires_at) <= now()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    if (row.consumed_at !== null) payload.consumed = Number(row.consumed_at);
    return payload;
  };

  // What a caller sends as a token, code or id is looked up as is: refuse what no id of ours can
  // be (and what PostgreSQL cannot even compare, such as NUL) before it reaches the database.
  const plausible = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 255 && !value.includes('\u0000');

  return class KnexAdapter implements Adapter {
    private readonly hashed: boolean;

    constructor(private readonly model: string) {
      this.hashed = HASHED_MODELS.has(model);
    }

    /** The row's id of a model's id: the token's hash for hashed models. */
    private key(id: string): string {
      return this.hashed ? sha256(id) : id;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const stored = this.hashed ? { ...payload, jti: undefined } : payload;
      await runPrepared(db, UPSERT, [
        this.model,
        this.key(id),
        JSON.stringify(stored),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ?? null,
        expiresIn ? now() + expiresIn * 1000 + (this.model === 'DeviceCode' ? DEVICE_CODE_GRACE_MS : 0) : null,
      ]);
      if (this.model === ACCESS_TOKEN) memory?.forgetAccessToken(id);
      await sweep();
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (!plausible(id)) return undefined;
      if (this.model === 'Client') return clientMetadata(db, id);
      const read = async () => (await readPrepared<Row, [string, string]>(db, BY_ID, [this.model, this.key(id)]))[0];
      const withToken = (payload: AdapterPayload | undefined) => (payload && this.hashed ? { ...payload, jti: id } : payload);
      if (this.model !== ACCESS_TOKEN || !memory) return withToken(parse(await read()));
      // Only a token found is remembered (its expiry is checked on every use, in parse); the
      // payload is parsed anew for each caller, which may change it.
      return withToken(parse((await memory.accessTokens.getFound(id, read)) as Row | undefined));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      if (!plausible(uid)) return undefined;
      return parse((await readPrepared<Row, [string, string]>(db, BY_UID, [this.model, uid]))[0]);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      if (!plausible(userCode)) return undefined;
      return parse((await readPrepared<Row, [string, string]>(db, BY_USER_CODE, [this.model, userCode]))[0]);
    }

    async destroy(id: string): Promise<void> {
      await runPrepared(db, DESTROY, [this.model, this.key(id)]);
      if (this.model === ACCESS_TOKEN) await memory?.clear();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await runPrepared(db, REVOKE_GRANT, [grantId]);
      await memory?.clear();
    }

    async consume(id: string): Promise<void> {
      // A conditional update: of two requests racing to use one code or refresh token, exactly
      // one wins; the other is answered invalid_grant (and the provider revokes the grant).
      const won = await runPrepared(db, CONSUME, [Math.floor(now() / 1000), this.model, this.key(id)]);
      if (won === 0) throw new errors.InvalidGrant(`${this.model} already used`);
    }
  };
}
