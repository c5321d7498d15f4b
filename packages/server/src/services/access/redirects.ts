import { DEFAULT_REDIRECT, safeRedirect } from '@tools-portal/core';
import type { Knex } from 'knex';
import { appOrigins, appOriginsOf } from '../apps/apps.js';

/**
 * Where the browser goes after signing in (docs/product.md, Redirects): the requested target when
 * it is on the portal or on the origin of an app this user may use, else the default. Any target
 * costs the same query, so neither the answer nor its time tells which other origins are apps.
 */
export async function redirectAfterSignIn(
  db: Knex,
  { portalOrigin, target, user }: { portalOrigin: string; target: string | null | undefined; user: { id: number; admin: boolean } },
): Promise<string> {
  return safeRedirect(target, { portalOrigin, appOrigins: await appOriginsOf(db, user) });
}

/**
 * A target kept while nobody is signed in yet (Google sign-in, between start and callback): the
 * target when it could be followed for someone, else the default. Kept server-side only, and
 * decided again by `redirectAfterSignIn` for the user who signs in.
 */
export async function redirectToKeep(db: Knex, portalOrigin: string, target: string | undefined): Promise<string> {
  if (!target) return DEFAULT_REDIRECT;
  return safeRedirect(target, { portalOrigin, appOrigins: await appOrigins(db) }) === DEFAULT_REDIRECT ? DEFAULT_REDIRECT : target;
}
