import { oidcClientCreatedAnswer, oidcClientInput, oidcClientSettingsAnswer, oidcKeyRotationAnswer } from '@tools-portal/core';
import { disableClient, enableClient, getClientSettings } from '../oidc/clients.js';
import { rotateSigningKeys } from '../oidc/signing-keys.js';
import { actorContext, route, type RouteSpec } from './route.js';

/** Apps as OpenID Connect clients and the provider's signing keys (docs/oidc.md). */
export const oidcRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/app/:id/oidc',
    access: 'admin',
    summary: 'Make an app an OpenID Connect client (or replace its settings): answers client_id and, once, client_secret',
    body: oidcClientInput,
    response: { status: 201, schema: oidcClientCreatedAnswer },
    async handler({ params, body }, ctx, deps) {
      deps.secrets.requireKey();
      return enableClient(actorContext(ctx, deps), { appId: params.id, input: body });
    },
  }),
  route({
    method: 'GET',
    path: '/app/:id/oidc',
    response: { schema: oidcClientSettingsAnswer },
    access: 'admin',
    summary: "An app's OpenID Connect client settings, without the secret (404 when not enabled)",
    async handler({ params }, _ctx, { db, config }) {
      return getClientSettings(db, params.id, config.publicUrl);
    },
  }),
  route({
    method: 'DELETE',
    path: '/app/:id/oidc',
    access: 'admin',
    summary: 'Turn OpenID Connect off for an app: its client is refused at once',
    response: { status: 204 },
    async handler({ params }, ctx, deps) {
      await disableClient(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/oidc/keys/rotate',
    response: { schema: oidcKeyRotationAnswer },
    access: 'admin',
    summary: 'Add new OpenID Connect signing keys; the old ones stay published until their tokens have expired',
    async handler(_input, ctx, deps) {
      const answer = await rotateSigningKeys(actorContext(ctx, deps), deps.secrets);
      deps.oidc.invalidate();
      return answer;
    },
  }),
];
