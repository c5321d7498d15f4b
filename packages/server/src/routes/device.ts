import { deviceCodeInput, deviceRequestAnswer } from '@tools-portal/core';
import type { Context } from 'koa';
import { allowDeviceRequest, denyDeviceRequest, lookUpDeviceRequest, type DeviceContext } from '../oidc/device-approval.js';
import { actorContext, principalOf, route, type Deps, type RouteSpec } from './route.js';

async function deviceContext(ctx: Context, deps: Deps): Promise<DeviceContext> {
  return { ...actorContext(ctx, deps), session: principalOf(ctx)!, provider: await deps.oidc.current(), authCache: deps.authCache };
}

/** The verification page of the device grant (docs/oidc.md, Device grant): signed-in sessions only. */
export const deviceRoutes: RouteSpec[] = [
  route({
    method: 'POST',
    path: '/device/lookup',
    access: 'user',
    sessionOnly: true,
    summary: 'Which device asks with this user code: {user_code} answers {user_code, client_id, name, host, address, requestedTimestamp}',
    body: deviceCodeInput,
    response: { schema: deviceRequestAnswer },
    async handler({ body }, ctx, deps) {
      deps.secrets.requireKey();
      return lookUpDeviceRequest(await deviceContext(ctx, deps), body.user_code);
    },
  }),
  route({
    method: 'POST',
    path: '/device/approve',
    access: 'user',
    sessionOnly: true,
    summary: 'Allow the device that asks with this user code: it is signed in as the caller, in a new session named "toolsctl on HOST"',
    body: deviceCodeInput,
    response: { status: 204 },
    async handler({ body }, ctx, deps) {
      deps.secrets.requireKey();
      await allowDeviceRequest(await deviceContext(ctx, deps), body.user_code);
    },
  }),
  route({
    method: 'POST',
    path: '/device/deny',
    access: 'user',
    sessionOnly: true,
    summary: 'Deny the device that asks with this user code: its next poll is answered access_denied',
    body: deviceCodeInput,
    response: { status: 204 },
    async handler({ body }, ctx, deps) {
      deps.secrets.requireKey();
      await denyDeviceRequest(await deviceContext(ctx, deps), body.user_code);
    },
  }),
];
