/** Staff with the company Google address become admins (SPEC, help text): users of client Admin. */
import { ADMIN_CLIENT_NAME, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import { translateDatabaseError } from '../db/errors.js';
import { logEvent, type Audit } from './audit.js';
import { currentUserById } from './users.js';

export async function createStaffAdmin(db: Knex, audit: Audit, identity: { email: string; googleSub: string }): Promise<CurrentUser> {
  try {
    return await db.transaction(async (trx) => {
      let client = await trx('clients').where({ name: ADMIN_CLIENT_NAME }).first('id');
      if (!client) {
        // The Admin client was deleted since the start that bootstrapped it.
        [client] = await trx('clients').insert({ name: ADMIN_CLIENT_NAME, created_at: Date.now() }).returning('id');
        await logEvent(trx, audit, `created client ${ADMIN_CLIENT_NAME}`, { client: ADMIN_CLIENT_NAME });
      }
      const [row] = await trx('users')
        .insert({ email: identity.email, client_id: client.id, google_sub: identity.googleSub, created_at: Date.now() })
        .returning('id');
      const user = await currentUserById(trx, row.id);
      await logEvent(trx, { ...audit, actor: user }, 'registered as staff admin with Google');
      return user;
    });
  } catch (error) {
    throw translateDatabaseError(error, `a user with email ${identity.email} already exists`) ?? error;
  }
}
