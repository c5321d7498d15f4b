import { safeRedirect } from '@tools-portal/core';
import type { Knex } from 'knex';
import { appOrigins } from './apps.js';

/** The login redirect to follow: the requested target when safe (docs/product.md, Redirects), else the default. */
export async function resolveRedirect(db: Knex, portalOrigin: string, target: string | null | undefined): Promise<string> {
  if (!target) return safeRedirect(undefined, { portalOrigin, appOrigins: [] });
  return safeRedirect(target, { portalOrigin, appOrigins: await appOrigins(db) });
}
