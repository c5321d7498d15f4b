import { ADMIN_CLIENT_NAME, ApiError, clientNameConflict, notFound, type Client } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent } from '../log/audit.js';
import type { ServiceContext } from '../support/context.js';

export async function listClients(db: Knex): Promise<Client[]> {
  return db('clients').select('id', 'name').orderBy('name');
}

export async function getClient(db: Knex, id: number): Promise<Client> {
  const client = await db('clients').select('id', 'name').where({ id }).first();
  if (!client) throw notFound('client', id);
  return client;
}

/** Creates the client Admin (first start, or after it was deleted); answers its id. */
export async function createAdminClient(ctx: ServiceContext): Promise<number> {
  const [row] = await ctx.db('clients').insert({ name: ADMIN_CLIENT_NAME, created_at: ctx.now() }).returning('id');
  await logEvent(ctx.db, ctx, { type: 'client.create', event: `created client ${ADMIN_CLIENT_NAME}`, subject: { client: ADMIN_CLIENT_NAME, user: '' } });
  return row.id;
}

/** `name` is already trimmed and checked by core's `clientName`. */
export async function createClient(ctx: ServiceContext, name: string): Promise<Client> {
  const lookalike = clientNameConflict(name);
  if (lookalike) throw lookalike;
  return await ctx.db.transaction(async (trx) => {
    const [row] = await trx('clients').insert({ name, created_at: ctx.now() }).returning(['id', 'name']);
    await logEvent(trx, ctx, { type: 'client.create', event: `created client ${name}`, subject: { client: name, user: '' } });
    return { id: row.id, name: row.name };
  });
}

/**
 * Renames a client. The Admin client keeps its name: its name is what makes its users admins
 * (docs/product.md §6).
 */
export async function renameClient(ctx: ServiceContext, { id, name }: { id: number; name: string }): Promise<Client> {
  const lookalike = clientNameConflict(name);
  if (lookalike) throw lookalike;
  return await ctx.db.transaction(async (trx) => {
    const before = await getClient(trx, id);
    if (before.name === name) return before;
    if (before.name === ADMIN_CLIENT_NAME) {
      throw new ApiError('forbidden', `client ${ADMIN_CLIENT_NAME} cannot be renamed: it holds the admins`);
    }
    await trx('clients').where({ id }).update({ name });
    await logEvent(trx, ctx, { type: 'client.update', event: `renamed client ${before.name} to ${name}`, subject: { client: name, user: '' } });
    return { id, name };
  });
}

/** Deletes a client and, through the foreign keys, its users with their sessions, keys and grants. */
export async function deleteClient(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const client = await getClient(trx, id);
    if (client.name === ADMIN_CLIENT_NAME) {
      throw new ApiError('forbidden', `client ${ADMIN_CLIENT_NAME} cannot be deleted: it holds the admins`);
    }
    const { count } = (await trx('users').where({ client_id: id }).count({ count: '*' }).first()) as { count: number };
    await trx('clients').where({ id }).delete();
    await logEvent(trx, ctx, {
      type: 'client.delete',
      event: `deleted client ${client.name} with ${Number(count)} users`,
      subject: { client: client.name, user: '' },
    });
  });
}
