/**
 * The provider's Client model over our apps (oidc/clients.ts reads their metadata): secrets compared
 * by hash, and built clients reused while their metadata is unchanged.
 */
import type { Knex } from 'knex';
import type Provider from 'oidc-provider';
import { clientLookup, secretMatches } from './clients.js';

/** Secrets are stored as SHA-256 hashes: compare the presented one by its hash, in constant time. */
export function compareSecretsByHash(provider: Provider): void {
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    return secretMatches(this.clientSecret ?? '', actual);
  };
}

/**
 * oidc-provider rebuilds a client from its metadata after hashing the metadata (object-hash, about
 * half a millisecond of CPU) on every request. The client is still looked up on every request (so
 * a new secret or a deleted client holds at once, on every instance: oidc/clients.ts), and the
 * built client is reused while its metadata is the same text.
 */
export function cacheClients(provider: Provider, db: Knex): void {
  const Client = provider.Client as unknown as { find(id: string): Promise<unknown> };
  const original = Client.find.bind(Client);
  const built = new Map<string, { text: string; client: unknown }>();
  Client.find = async function find(id: string) {
    if (typeof id !== 'string') return undefined;
    const lookup = await clientLookup(db, id);
    if (!lookup) {
      built.delete(id);
      return undefined;
    }
    const hit = built.get(id);
    if (hit?.text === lookup.text) return hit.client;
    const client = await original(id);
    if (client) built.set(id, { text: lookup.text, client });
    return client;
  };
}
