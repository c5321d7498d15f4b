/**
 * The provider's signing keys (docs/oidc.md): one RS256 and one ES256 key made at the first start,
 * stored sealed with SECRET_KEY, shared by every instance. Rotation adds a new pair and retires
 * the old one: retired keys no longer sign but stay published until every token they signed has
 * expired.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { OidcKeyRotation, OidcSigningAlg } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { JWK } from 'oidc-provider';
import { isUniqueViolation } from '../db/errors.js';
import { logEvent } from '../services/log/audit.js';
import type { ServiceContext } from '../services/support/context.js';
import type { SecretBox } from '../services/support/secret-box.js';

/** Longest life of anything signed (ID tokens: 1 hour) plus clock tolerance, in milliseconds. */
export const RETIRED_KEY_PUBLISHED_MS = 2 * 60 * 60 * 1000;

/**
 * How long relying parties may cache the JWKS (its `Cache-Control: max-age`), in seconds: well
 * inside the time a retired key stays published, so a cached set never outlives the keys of the
 * tokens it checks, and a rotation's new keys reach a relying party that does not refetch on an
 * unknown `kid` within 5 minutes.
 */
export const JWKS_MAX_AGE_SECONDS = 5 * 60;

const ALGS: OidcSigningAlg[] = ['RS256', 'ES256'];
const purpose = (kid: string) => `oidc-signing-key:${kid}`;

interface KeyRow {
  id: number;
  kid: string;
  alg: string;
  sealed_jwk: string;
  created_at: number | string;
  retired_at: number | string | null;
}

export interface KeySet {
  /** Private JWKs: signing keys first (newest first per alg), then retired ones still published. */
  keys: JWK[];
  /** Changes whenever the set changes: instances compare it to rebuild their provider. */
  version: string;
  signing: string[];
  published: string[];
}

function newKey(alg: OidcSigningAlg): JWK {
  const kid = randomBytes(12).toString('base64url');
  const pair = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...(pair.privateKey.export({ format: 'jwk' }) as JWK), kid, alg, use: 'sig' };
}

async function insertKeys(db: Knex, secrets: SecretBox, now: number): Promise<string[]> {
  const rows = ALGS.map((alg) => {
    const jwk = newKey(alg);
    return { kid: jwk.kid!, alg, sealed_jwk: secrets.encrypt(JSON.stringify(jwk), purpose(jwk.kid!)), created_at: now };
  });
  await db('oidc_signing_keys').insert(rows);
  return rows.map((row) => row.kid);
}

/**
 * Makes the first keys when there are none. Two instances starting at once on an empty database
 * may both make keys; both sets are kept and the newest signs, which is harmless.
 */
export async function ensureSigningKeys(db: Knex, secrets: SecretBox): Promise<void> {
  const any = await db('oidc_signing_keys').first('id');
  if (any) return;
  try {
    await insertKeys(db, secrets, Date.now());
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

export async function loadKeySet(db: Knex, secrets: SecretBox, now = Date.now()): Promise<KeySet> {
  const rows: KeyRow[] = await db('oidc_signing_keys')
    .where((q) => q.whereNull('retired_at').orWhere('retired_at', '>', now - RETIRED_KEY_PUBLISHED_MS))
    .orderBy('id', 'desc');
  const active = rows.filter((row) => row.retired_at === null);
  const retired = rows.filter((row) => row.retired_at !== null);
  const open = (row: KeyRow) => JSON.parse(secrets.decryptText(row.sealed_jwk, purpose(row.kid))) as JWK;
  // oidc-provider signs with the first key of an algorithm in the list.
  const ordered = [...active, ...retired];
  return {
    keys: ordered.map(open),
    version: ordered.map((row) => `${row.kid}:${row.retired_at ?? ''}`).join(','),
    signing: ALGS.map((alg) => active.find((row) => row.alg === alg)?.kid).filter((kid): kid is string => Boolean(kid)),
    published: ordered.map((row) => row.kid),
  };
}

/** Cheap check whether the key set changed (one small query): compared by every instance. */
export async function keySetVersion(db: Knex, now = Date.now()): Promise<string> {
  const rows: Pick<KeyRow, 'kid' | 'retired_at' | 'id'>[] = await db('oidc_signing_keys')
    .where((q) => q.whereNull('retired_at').orWhere('retired_at', '>', now - RETIRED_KEY_PUBLISHED_MS))
    .orderBy('id', 'desc')
    .select('id', 'kid', 'retired_at');
  const active = rows.filter((row) => row.retired_at === null);
  const retired = rows.filter((row) => row.retired_at !== null);
  return [...active, ...retired].map((row) => `${row.kid}:${row.retired_at ?? ''}`).join(',');
}

/** Adds a new key per algorithm and retires the current ones (published for a while longer). */
export async function rotateSigningKeys(ctx: ServiceContext, secrets: SecretBox): Promise<OidcKeyRotation> {
  secrets.requireKey();
  const now = ctx.now();
  await ctx.db.transaction(async (trx) => {
    await trx('oidc_signing_keys').whereNull('retired_at').update({ retired_at: now });
    const kids = await insertKeys(trx, secrets, now);
    await logEvent(trx, ctx, { type: 'oidc.keys', event: `rotated the OpenID Connect signing keys (new keys ${kids.join(', ')})` });
  });
  const set = await loadKeySet(ctx.db, secrets, now);
  return { signing: set.signing, published: set.published };
}
