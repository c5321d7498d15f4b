import { oidcClientInput } from '@tools-portal/core';
import { disableClient, enableClient, getClientSettings } from '../oidc/clients.js';
import { rotateSigningKeys } from '../oidc/signing-keys.js';
import { auditOf, bodyOf, created, idParam, noContent, type RouteSpec } from './route.js';

/** Apps as OpenID Connect clients and the provider's signing keys (docs/oidc.md). */
export const oidcRoutes: RouteSpec[] = [
  {
    method: 'POST',
    path: '/app/:id/oidc',
    access: 'admin',
    summary: 'Make an app an OpenID Connect client (or replace its settings): answers client_id and, once, client_secret',
    async handler(ctx, { db, config, secrets }) {
      secrets.requireKey();
      const input = bodyOf(ctx, oidcClientInput);
      created(ctx, await enableClient(db, auditOf(ctx), idParam(ctx, 'id'), input, config.publicUrl));
    },
  },
  {
    method: 'GET',
    path: '/app/:id/oidc',
    access: 'admin',
    summary: "An app's OpenID Connect client settings, without the secret (404 when not enabled)",
    async handler(ctx, { db, config }) {
      ctx.body = await getClientSettings(db, idParam(ctx, 'id'), config.publicUrl);
    },
  },
  {
    method: 'DELETE',
    path: '/app/:id/oidc',
    access: 'admin',
    summary: 'Turn OpenID Connect off for an app: its client is refused at once',
    async handler(ctx, { db }) {
      await disableClient(db, auditOf(ctx), idParam(ctx, 'id'));
      noContent(ctx);
    },
  },
  {
    method: 'POST',
    path: '/oidc/keys/rotate',
    access: 'admin',
    summary: 'Add new OpenID Connect signing keys; the old ones stay published until their tokens have expired',
    async handler(ctx, { db, secrets, oidc }) {
      const answer = await rotateSigningKeys(db, secrets, auditOf(ctx));
      oidc.invalidate();
      ctx.body = answer;
    },
  },
];
