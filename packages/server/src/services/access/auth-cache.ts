/**
 * The forward-auth hot path's short memory (docs/product.md, Forward auth): who a token stands for,
 * which apps a user may use with which roles and in which teams, and the app list; and what a
 * userinfo call of the OpenID provider looks up (docs/oidc.md). Each entry lives at most `ttlMs`
 * (AUTH_CACHE_SECONDS, at most 5 s), so a change made through another instance takes effect
 * here within that time; a change made through this instance calls `clear()` and takes effect
 * at once. Concurrent misses for one key share a single lookup.
 */
import type { Knex } from 'knex';
import { AppIndex } from '../apps/app-index.js';
import { listApps } from '../apps/apps.js';
import { accessOf, type UserAccess } from './app-access.js';
import { principalFromToken, type Principal, type SessionPolicy } from '../sign-in/sessions.js';

/** Enough for every active user of a company; a flood of unknown tokens evicts the oldest. */
const MAX_ENTRIES = 20_000;

interface Entry<V> {
  value: Promise<V>;
  expires: number;
}

/** A map whose entries live `ttlMs`; used by AuthCache, exported for its tests. */
export class TtlMap<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.entries.delete(key);
    // The entry's life starts before the lookup, so it never outlives data read later than that.
    const entry: Entry<V> = { value: load(), expires: now + this.ttlMs };
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, entry);
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.value;
  }

  /** As `get`, but an answer that found nothing (undefined, null, false) is not kept. */
  async getFound(key: K, load: () => Promise<V>): Promise<V> {
    const value = await this.get(key, load);
    if (!value) this.delete(key);
    return value;
  }

  /**
   * Shortens an entry's life to `expires` (undefined: ends it) when it would outlive it: for an
   * entry made of another remembered entry, which must not make it older than the bound.
   */
  cap(key: K, expires: number | undefined): void {
    const hit = this.entries.get(key);
    if (!hit) return;
    if (expires === undefined) this.entries.delete(key);
    else if (expires < hit.expires) hit.expires = expires;
  }

  /** Until when a live entry may be used (undefined: none is held). */
  expiryOf(key: K): number | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > this.now() ? hit.expires : undefined;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Values kept until a time given with each, read without a lookup: for answers made of entries of
 * TtlMaps, which must not outlive the oldest of them (the caller passes its expiry).
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();

  constructor(
    private readonly now: () => number,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires > this.now()) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, expires: number): void {
    this.entries.delete(key);
    if (expires <= this.now()) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, expires });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

export interface AuthCacheOptions {
  /** How long an entry may be used; 0 turns the cache off. */
  ttlMs: number;
  now?: () => number;
  maxEntries?: number;
}

export class AuthCache {
  private readonly principals: TtlMap<string, Principal | null>;
  private readonly grants: TtlMap<number, UserAccess>;
  private readonly appList: TtlMap<'apps', AppIndex>;
  /**
   * The OpenID provider's access tokens by id, as oidc/adapter.ts stored them (a token's row never
   * changes; it is only deleted): within the same bound, so that a userinfo call does not read it
   * again, and a revocation made on another instance holds here within AUTH_CACHE_SECONDS.
   */
  readonly accessTokens: TtlMap<string, unknown>;
  /**
   * A userinfo call's lookups past the token's row, within the same bound (oidc/remembered-lookups.ts):
   * by access token, that its provider session still held when last read; by grant, user and
   * client, the user of a grant that stood then. Only what held is remembered.
   */
  readonly boundAccessTokens: TtlMap<string, boolean>;
  readonly standingGrants: TtlMap<string, unknown>;
  /**
   * Whole userinfo answers by access token (oidc/userinfo-answers.ts), each until the first of the
   * entries above it was made of expires: never older than they may be.
   */
  readonly userinfoAnswers: ExpiringMap<string, unknown>;

  constructor(
    private readonly db: Knex,
    private readonly policy: SessionPolicy,
    options: AuthCacheOptions,
  ) {
    const now = options.now ?? Date.now;
    const map = <K, V>(maxEntries = options.maxEntries): TtlMap<K, V> => {
      const made = new TtlMap<K, V>(options.ttlMs, now, maxEntries);
      this.maps.push(made);
      return made;
    };
    this.principals = map();
    this.grants = map();
    this.appList = map(1);
    this.accessTokens = map();
    this.boundAccessTokens = map();
    this.standingGrants = map();
    this.userinfoAnswers = new ExpiringMap(now, options.maxEntries);
    this.maps.push(this.userinfoAnswers);
  }

  /** Every map above: what `clearHere` empties and `size` counts. */
  private readonly maps: Array<{ clear(): void; readonly size: number }> = [];

  /** The user a session token or API key stands for (null: nobody, also remembered). */
  principal(token: string): Promise<Principal | null> {
    return this.principals.get(token, () => principalFromToken(this.db, token, this.policy));
  }

  /** What a user may use (direct and team grants, with roles) and the user's teams. */
  accessOf(userId: number): Promise<UserAccess> {
    return this.grants.get(userId, () => accessOf(this.db, userId));
  }

  /** Forgets an access token's row and its userinfo answer (the token was stored again). */
  forgetAccessToken(id: string): void {
    this.accessTokens.delete(id);
    this.userinfoAnswers.delete(id);
  }

  /** Until when `accessOf(userId)` answers what it holds now, if it holds anything. */
  accessExpiry(userId: number): number | undefined {
    return this.grants.expiryOf(userId);
  }

  /** Every registered app, indexed by name and URL. */
  apps(): Promise<AppIndex> {
    return this.appList.get('apps', async () => new AppIndex(await listApps(this.db)));
  }

  private askOthers: (() => Promise<void>) | undefined;

  /** Forgets everything, here and in the other workers of this instance (WORKERS): called after any change. */
  async clear(): Promise<void> {
    this.clearHere();
    await this.askOthers?.();
  }

  /** Forgets everything in this process only. */
  clearHere(): void {
    for (const map of this.maps) map.clear();
  }

  /** Under node:cluster: how to make the other workers forget too (cluster-peers.ts). */
  shareClears(askOthers: () => Promise<void>): void {
    this.askOthers = askOthers;
  }

  /** Entries held now (tests). */
  get size(): number {
    return this.maps.reduce((sum, map) => sum + map.size, 0);
  }
}
