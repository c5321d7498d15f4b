/** Staff with the company Google address become admins (docs/product.md §1): users of client Admin. */
import { ADMIN_CLIENT_NAME } from '@tools-portal/core';
import { createAdminClient } from './clients.js';
import { withDb, type ServiceContext } from '../support/context.js';
import { completeSignIn, type SignedIn, type SignInPolicy } from '../sign-in/sign-in.js';
import { currentUserById } from './users.js';

/** Creates the staff admin and signs them in, in one transaction. */
export async function createStaffAdmin(ctx: ServiceContext<SignInPolicy>, identity: { email: string; googleSub: string }): Promise<SignedIn> {
  return await ctx.db.transaction(async (trx) => {
    const existing: { id: number } | undefined = await trx('clients').where({ name: ADMIN_CLIENT_NAME }).first('id');
    // The Admin client may have been deleted since the start that bootstrapped it.
    const clientId = existing?.id ?? (await createAdminClient({ ...withDb(ctx, trx), actor: null }));
    const [row] = await trx('users')
      // Google's verified claim for this email (checked before) proves the mailbox.
      .insert({ email: identity.email, client_id: clientId, google_sub: identity.googleSub, created_at: Date.now(), email_verified_at: Date.now() })
      .returning('id');
    return completeSignIn(withDb(ctx, trx), { user: await currentUserById(trx, row.id), method: 'staff-google' });
  });
}
