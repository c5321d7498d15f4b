import { webhookAnswer, webhookDeliveryAnswer, webhookInput, webhookSecretAnswer, webhookUpdate, z } from '@tools-portal/core';
import { listDeliveries, sendTestDelivery } from '../services/webhooks/deliveries.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookContext,
} from '../services/webhooks/webhooks.js';
import { actorContext, route, type Deps, type RouteSpec } from './route.js';
import type { Context } from 'koa';

const webhookContext = (ctx: Context, deps: Deps): WebhookContext => ({ ...actorContext(ctx, deps), secrets: deps.secrets });

export const webhookRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/webhook',
    access: 'admin',
    summary: 'Every webhook: URL, event types or prefixes, description, enabled, and a warning for plain http',
    response: { schema: z.array(webhookAnswer) },
    async handler(_input, _ctx, { db }) {
      return listWebhooks(db);
    },
  }),
  route({
    method: 'POST',
    path: '/webhook',
    access: 'admin',
    summary: 'Creates a webhook {url, events, description?}; answers it with its signing secret, shown this once',
    body: webhookInput,
    response: { status: 201, schema: webhookSecretAnswer },
    async handler({ body }, ctx, deps) {
      return createWebhook(webhookContext(ctx, deps), body);
    },
  }),
  route({
    method: 'GET',
    path: '/webhook/:id',
    access: 'admin',
    summary: 'One webhook',
    response: { schema: webhookAnswer },
    async handler({ params }, _ctx, { db }) {
      return getWebhook(db, params.id);
    },
  }),
  route({
    method: 'PUT',
    path: '/webhook/:id',
    access: 'admin',
    summary: 'Changes a webhook: url, events, description, enabled (true turns a hook the portal turned off back on)',
    body: webhookUpdate,
    response: { schema: webhookAnswer },
    async handler({ params, body }, ctx, deps) {
      return updateWebhook(webhookContext(ctx, deps), { id: params.id, ...body });
    },
  }),
  route({
    method: 'DELETE',
    path: '/webhook/:id',
    access: 'admin',
    summary: 'Deletes a webhook and its deliveries',
    response: { status: 204 },
    async handler({ params }, ctx, deps) {
      await deleteWebhook(webhookContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/webhook/:id/secret',
    access: 'admin',
    summary: 'Rotates the signing secret: answers the hook with the new one, shown this once; the old one signs too for 24 hours',
    response: { schema: webhookSecretAnswer },
    async handler({ params }, ctx, deps) {
      return rotateWebhookSecret(webhookContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/webhook/:id/test',
    access: 'admin',
    summary: 'Sends a webhook.test entry to this hook now; answers the delivery after its one attempt',
    response: { schema: webhookDeliveryAnswer },
    async handler({ params }, ctx, deps) {
      return sendTestDelivery(webhookContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/webhook/:id/delivery',
    access: 'admin',
    summary: "The hook's last 100 deliveries, newest first: status, attempts, answer code, duration, error (never a body)",
    response: { schema: z.array(webhookDeliveryAnswer) },
    async handler({ params }, _ctx, { db }) {
      return listDeliveries(db, params.id);
    },
  }),
];
