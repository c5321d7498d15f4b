import { clientInput, clientUpdate, clientAnswer, userAnswer, z } from '@tools-portal/core';
import * as clients from '../services/clients.js';
import { usersOfClient } from '../services/users.js';
import { auditOf, bodyOf, created, idParam, noContent, type RouteSpec } from './route.js';

export const clientRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/client',
    response: { schema: z.array(clientAnswer) },
    access: 'admin',
    summary: 'All clients, by name',
    async handler(ctx, { db }) {
      ctx.body = await clients.listClients(db);
    },
  },
  {
    method: 'GET',
    path: '/client/:id',
    response: { schema: clientAnswer },
    access: 'admin',
    summary: 'One client',
    async handler(ctx, { db }) {
      ctx.body = await clients.getClient(db, idParam(ctx, 'id'));
    },
  },
  {
    method: 'GET',
    path: '/client/:id/user',
    response: { schema: z.array(userAnswer) },
    access: 'admin',
    summary: "A client's users, by email",
    async handler(ctx, { db }) {
      const client = await clients.getClient(db, idParam(ctx, 'id'));
      ctx.body = await usersOfClient(db, client.id);
    },
  },
  {
    method: 'POST',
    path: '/client',
    body: clientInput,
    response: { status: 201, schema: clientAnswer },
    access: 'admin',
    summary: 'Create a client: {name}',
    async handler(ctx, { db }) {
      const { name } = bodyOf(ctx, clientInput);
      created(ctx, await clients.createClient(db, auditOf(ctx), name));
    },
  },
  {
    method: 'PUT',
    path: '/client',
    access: 'admin',
    summary: 'Rename a client: {id, name}',
    body: clientUpdate,
    response: { schema: clientAnswer },
    async handler(ctx, { db }) {
      const { id, name } = bodyOf(ctx, clientUpdate);
      ctx.body = await clients.renameClient(db, auditOf(ctx), id, name);
    },
  },
  {
    method: 'DELETE',
    path: '/client/:id',
    response: { status: 204 },
    access: 'admin',
    summary: 'Delete a client and its users',
    async handler(ctx, { db }) {
      await clients.deleteClient(db, auditOf(ctx), idParam(ctx, 'id'));
      noContent(ctx);
    },
  },
];
