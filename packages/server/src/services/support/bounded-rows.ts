/**
 * Tables that callers who have not signed in add rows to (Google sign-ins under way, passkey
 * challenges; docs/security.md, Anonymous traffic): each insert sweeps the expired rows and keeps
 * at most `max`, the oldest dropped (a browser that took that long starts again). The table has
 * an increasing `id` and an `expires_at` in milliseconds.
 */
import type { Knex } from 'knex';

/** Inserts the row, sweeping expired ones and keeping at most `max`; answers its id. */
export async function insertBounded(
  db: Knex,
  table: string,
  { row, max, now = Date.now() }: { row: Record<string, unknown>; max: number; now?: number },
): Promise<number> {
  await db(table).where('expires_at', '<=', now).delete();
  const [inserted] = await db(table).insert(row).returning('id');
  const id = Number(typeof inserted === 'object' ? (inserted as { id: number }).id : inserted);
  // Ids grow: whatever lies max ids behind this one is the oldest, whichever instance wrote it.
  await db(table)
    .where('id', '<=', id - max)
    .delete();
  return id;
}
