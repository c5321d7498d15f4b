/**
 * An app's roles (docs/product.md, Teams, app roles and owners): 0 to 20, the first the default.
 * Every grant, to a user or a team, carries one of them, or none when the app has none.
 */
import { invalidInput } from '@tools-portal/core';
import type { Knex } from 'knex';

/** The roles column (a JSON list) as a list; anything unreadable is no roles. */
export function rolesOf(column: string | null | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(column ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((role): role is string => typeof role === 'string') : [];
  } catch {
    return [];
  }
}

/** The role a new grant carries: the one asked for (one of the app's), else the default; none when the app has none. */
export function grantRole(roles: readonly string[], asked: string | undefined, field = 'role'): string | null {
  if (roles.length === 0) {
    if (asked !== undefined) throw invalidInput(field, 'the app has no roles');
    return null;
  }
  if (asked === undefined) return roles[0];
  if (!roles.includes(asked)) throw invalidInput(field, `must be one of the app's roles: ${roles.join(', ')}`);
  return asked;
}

/**
 * After an app's roles changed: grants (to users and teams) holding a role the app no longer has,
 * or none while it has some, take the new default; open requests for a removed role ask for none.
 * Answers how many grants changed.
 */
export async function conformGrantsToRoles(trx: Knex, { appId, roles }: { appId: number; roles: readonly string[] }): Promise<number> {
  const fallback = roles.length === 0 ? null : roles[0];
  let changed = 0;
  for (const table of ['user_apps', 'team_apps']) {
    const stale = trx(table).where('app_id', appId);
    if (roles.length === 0) stale.whereNotNull('role');
    else stale.where((where) => where.whereNull('role').orWhereNotIn('role', [...roles]));
    changed += await stale.update({ role: fallback });
  }
  const requests = trx('access_requests').where({ app_id: appId, status: 'open' }).whereNotNull('role');
  if (roles.length > 0) requests.whereNotIn('role', [...roles]);
  await requests.update({ role: null });
  return changed;
}
