/**
 * Known devices (docs/security.md, lockout as denial of service): a browser that has signed in to
 * an account with its password carries a device cookie, a random id stored only as a hash with
 * the accounts it signed in to. A correct password from such a browser passes the email's ban;
 * its attempts are counted per device instead (the same limit), and the address limit still holds.
 * The id is replaced at every successful sign-in, so an id planted in a browser is worth nothing.
 */
import { randomToken } from '@tools-portal/core';
import type { Knex } from 'knex';
import { sha256 } from '../support/secrets.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const ID_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

/** The hash of a presented device id that has signed in to the account of this email, if it has. */
export async function knownDevice(db: Knex, email: string, deviceId: string | undefined): Promise<string | undefined> {
  if (!deviceId || !ID_PATTERN.test(deviceId)) return undefined;
  const hash = sha256(deviceId);
  const row = await db('login_devices')
    .join('users', 'users.id', 'login_devices.user_id')
    .where({ 'login_devices.token_hash': hash, 'users.email': email })
    .first('login_devices.id');
  return row ? hash : undefined;
}

/** Whether the user has signed in with a password from any browser (that still has its cookie). */
export async function hasDevices(db: Knex, userId: number): Promise<boolean> {
  return (await db('login_devices').where({ user_id: userId }).first('id')) !== undefined;
}

/**
 * Records a successful sign-in of this browser to the user: answers the device's new id, which
 * carries over the accounts the old one (if genuine) had signed in to.
 */
export async function rememberDevice(db: Knex, { userId, oldId, ttlDays }: { userId: number; oldId: string | undefined; ttlDays: number }): Promise<string> {
  const id = randomToken(32);
  const hash = sha256(id);
  const now = Date.now();
  await db.transaction(async (trx) => {
    if (oldId && ID_PATTERN.test(oldId)) {
      await trx('login_devices')
        .where({ token_hash: sha256(oldId) })
        .update({ token_hash: hash });
    }
    await trx('login_devices')
      .insert({ token_hash: hash, user_id: userId, created_at: now, last_used_at: now })
      .onConflict(['token_hash', 'user_id'])
      .merge({ last_used_at: now });
    await trx('login_devices')
      .where({ user_id: userId })
      .andWhere('last_used_at', '<', now - ttlDays * DAY_MS)
      .delete();
  });
  return id;
}
