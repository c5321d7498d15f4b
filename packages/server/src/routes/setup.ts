/** The portal's setup as a file (docs/cli.md, "The portal's setup as a file"; docs/api.md, Setup). */
import { setupApplyAnswer, setupApplyInput, setupExportAnswer, setupJsonSchema, setupPlanAnswer, setupPlanInput, z } from '@tools-portal/core';
import { applyDocument } from '../services/setup/setup-apply.js';
import { planDocument } from '../services/setup/setup-plan.js';
import { exportSetup } from '../services/setup/setup-state.js';
import { actorContext, route, type RouteSpec } from './route.js';

export const setupRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/config.schema.json',
    response: { schema: z.record(z.string(), z.unknown()) },
    access: 'public',
    summary: "The JSON Schema of a setup document (for editors: completion and checks of a portal's setup file)",
    async handler(_input, ctx) {
      ctx.set('Cache-Control', 'no-cache');
      return setupJsonSchema();
    },
  }),
  route({
    method: 'GET',
    path: '/config',
    response: { schema: setupExportAnswer },
    access: 'admin',
    summary: 'The portal as a setup document {document, icons}: every field, icons named sha256:… with their bytes in icons',
    async handler(_input, ctx, deps) {
      const service = actorContext(ctx, deps);
      return exportSetup(service.db, { now: service.now(), withIcons: true });
    },
  }),
  route({
    method: 'POST',
    path: '/config/plan',
    body: setupPlanInput,
    response: { schema: setupPlanAnswer },
    access: 'admin',
    summary: 'What applying a setup document would change: {document, prune?, icons?} → {changes, hash}; 400 with every problem at its path',
    async handler({ body }, ctx, deps) {
      const service = actorContext(ctx, deps);
      const { changes, hash } = await planDocument(service.db, { ...body, now: service.now(), callerEmail: service.actor.email });
      return { changes, hash };
    },
  }),
  route({
    method: 'POST',
    path: '/config/apply',
    body: setupApplyInput,
    response: { schema: setupApplyAnswer },
    access: 'admin',
    summary: "Applies a setup document all or nothing: {document, prune?, icons?, expect?} → {changes, hash, secrets}; 409 when expect is not the plan's hash",
    async handler({ body }, ctx, deps) {
      return applyDocument(actorContext(ctx, deps), body);
    },
  }),
];
