/**
 * Apps as OpenID clients (docs/oidc.md): the admin's settings, and the client metadata the
 * provider reads on every request (so that turning a client off or issuing a new secret takes
 * effect at once on every instance). The client id is the app's name. Secrets are random 256-bit
 * values, shown once and stored as SHA-256 hashes; the provider compares them through
 * `compareClientSecret` (oidc/client-model.ts), never in plain text.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  ApiError,
  notFound,
  randomToken,
  type OidcClientCreated,
  type OidcClientInput,
  type OidcClientSettings,
  type OidcSigningAlg,
  TOOLSCTL_CLIENT_ID,
} from '@tools-portal/core';
import type { Knex } from 'knex';
import type { AdapterPayload } from 'oidc-provider';
import { LITERAL, preparedSelect, readPrepared } from '../db/direct-reads.js';
import { getApp } from '../services/apps/apps.js';
import { logEvent } from '../services/log/audit.js';
import type { ServiceContext } from '../services/support/context.js';
import { sha256 } from '../services/support/secrets.js';

interface ClientRow {
  app_id: number;
  name: string;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  public: boolean | number;
  id_token_alg: string;
  secret_hash: string | null;
  device: boolean | number;
  created_at: number | string;
  updated_at: number | string;
}

const clientsQuery = (db: Knex) => db('oidc_clients').join('apps', 'apps.id', 'oidc_clients.app_id').select('oidc_clients.*', 'apps.name');

// Read on every call to the token and userinfo endpoints: remembered until the database changes
// (db/direct-reads.ts), so it holds at once on every instance and costs no read while nothing does.
const CLIENT_BY_NAME = preparedSelect((db, name: string) => clientsQuery(db).where('apps.name', name).limit(1, LITERAL), { remember: true });

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

function discoveryUrl(publicUrl: string): string {
  return `${publicUrl}/.well-known/openid-configuration`;
}

function present(row: ClientRow, publicUrl: string): OidcClientSettings {
  return {
    client_id: row.name,
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
    public: Boolean(row.public),
    id_token_signed_response_alg: row.id_token_alg as OidcSigningAlg,
    device: Boolean(row.device),
    discovery_url: discoveryUrl(publicUrl),
    createdTimestamp: new Date(Number(row.created_at)).toISOString(),
    updatedTimestamp: new Date(Number(row.updated_at)).toISOString(),
  };
}

type Settings = Required<Omit<OidcClientInput, 'post_logout_redirect_uris'>> & {
  post_logout_redirect_uris: string[];
  /** A confidential client that stays one keeps its secret (a setup document's change, docs/cli.md). */
  keepSecret?: boolean;
};

/** Enables the app as a client, or replaces its settings; a confidential client gets a new secret unless it keeps its own. */
export async function enableClient(
  ctx: ServiceContext<{ publicUrl: string }>,
  { appId, input }: { appId: number; input: Settings },
): Promise<OidcClientCreated> {
  const now = ctx.now();
  return ctx.db.transaction(async (trx) => {
    const app = await getApp(trx, appId);
    if (app.name === TOOLSCTL_CLIENT_ID) throw new ApiError('conflict', `${TOOLSCTL_CLIENT_ID} is the portal's built-in OpenID client: rename the app first`);
    const kept: { secret_hash: string | null } | undefined = input.keepSecret
      ? await trx('oidc_clients').where({ app_id: appId }).first('secret_hash')
      : undefined;
    const keep = !input.public && kept?.secret_hash !== null && kept?.secret_hash !== undefined;
    const secret = input.public || keep ? undefined : randomToken(32);
    const row = {
      app_id: appId,
      redirect_uris: JSON.stringify(dedupe(input.redirect_uris)),
      post_logout_redirect_uris: JSON.stringify(dedupe(input.post_logout_redirect_uris)),
      public: input.public,
      id_token_alg: input.id_token_signed_response_alg,
      secret_hash: keep ? (kept?.secret_hash ?? null) : secret ? sha256(secret) : null,
      device: input.device,
      updated_at: now,
    };
    const before = await trx('oidc_clients').where({ app_id: appId }).first('app_id');
    if (before) await trx('oidc_clients').where({ app_id: appId }).update(row);
    else await trx('oidc_clients').insert({ ...row, created_at: now });
    await logEvent(trx, ctx, {
      type: 'oidc.client',
      event: `${before ? 'replaced' : 'enabled'} OpenID Connect for app ${app.name}${secret ? ' (new client secret)' : keep ? ' (same client secret)' : ' (public client)'}`,
    });
    const stored: ClientRow = await clientsQuery(trx).where('oidc_clients.app_id', appId).first();
    return { ...present(stored, ctx.policy.publicUrl), ...(secret ? { client_secret: secret } : {}) };
  });
}

export async function getClientSettings(db: Knex, appId: number, publicUrl: string): Promise<OidcClientSettings> {
  const app = await getApp(db, appId);
  const row: ClientRow | undefined = await clientsQuery(db).where('oidc_clients.app_id', appId).first();
  if (!row) throw new ApiError('not_found', `app ${app.name} is not an OpenID Connect client`);
  return present(row, publicUrl);
}

/** Turns the client off: its tokens stop working at once (the client is no longer found). */
export async function disableClient(ctx: ServiceContext, appId: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const app = await getApp(trx, appId);
    const deleted = await trx('oidc_clients').where({ app_id: appId }).delete();
    if (deleted === 0) throw notFound('OpenID Connect client of app', app.name);
    await logEvent(trx, ctx, { type: 'oidc.client', event: `turned off OpenID Connect for app ${app.name}` });
  });
}

/**
 * The provider's view of a client, or undefined (unknown client → invalid_client). The secret
 * field carries the hash; `compareClientSecret` hashes what the client presents.
 */
export async function clientMetadata(db: Knex, clientId: string): Promise<AdapterPayload | undefined> {
  return (await clientLookup(db, clientId))?.metadata();
}

export interface ClientLookup {
  /** A new copy of the metadata each time: the provider may change what it is given. */
  metadata(): AdapterPayload;
  /** The metadata as JSON: the same text while the client is unchanged. */
  text: string;
}

// The text of a remembered row's metadata, made once per row read.
const texts = new WeakMap<ClientRow, string>();

/** A client's metadata and its text (oidc/client-model.ts reuses a built client while the text is the same). */
export async function clientLookup(db: Knex, clientId: string): Promise<ClientLookup | undefined> {
  if (clientId === TOOLSCTL_CLIENT_ID) return { metadata: () => ({ ...TOOLSCTL_METADATA }), text: TOOLSCTL_TEXT };
  if (clientId.length === 0 || clientId.length > 200 || clientId.includes('\u0000')) return undefined;
  const [row] = await readPrepared<ClientRow, [string]>(db, CLIENT_BY_NAME, [clientId]);
  if (!row) return undefined;
  let text = texts.get(row);
  if (text === undefined) texts.set(row, (text = JSON.stringify(metadataOf(row))));
  return { metadata: () => metadataOf(row), text };
}

function metadataOf(row: ClientRow): AdapterPayload {
  const isPublic = Boolean(row.public);
  return {
    client_id: row.name,
    ...(isPublic ? {} : { client_secret: row.secret_hash ?? '' }),
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
    grant_types: ['authorization_code', 'refresh_token', ...(row.device ? [DEVICE_CODE_GRANT] : [])],
    response_types: ['code'],
    token_endpoint_auth_method: isPublic ? 'none' : 'client_secret_basic',
    id_token_signed_response_alg: row.id_token_alg,
    // Every ID token says when the user really signed in (docs/oidc.md), not only when asked.
    require_auth_time: true,
    // Loopback redirect URIs are fine for a web client here (docs/oidc.md: http only on loopback).
    application_type: 'web',
    'urn:tools-portal:app_id': row.app_id,
  } as AdapterPayload;
}

/**
 * The built-in client of `toolsctl` (docs/oidc.md, Device grant): public, the device grant and
 * refresh only. It is no app: never listed, nothing to delete, and an app cannot take its name.
 */
const TOOLSCTL_METADATA: AdapterPayload = {
  client_id: TOOLSCTL_CLIENT_ID,
  redirect_uris: [],
  grant_types: [DEVICE_CODE_GRANT, 'refresh_token'],
  response_types: [],
  token_endpoint_auth_method: 'none',
  id_token_signed_response_alg: 'RS256',
  require_auth_time: true,
  application_type: 'native',
};
const TOOLSCTL_TEXT = JSON.stringify(TOOLSCTL_METADATA);

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(storedHash: string, presented: string): boolean {
  if (!storedHash || presented.length === 0 || presented.length > 512) return false;
  const a = Buffer.from(sha256(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
