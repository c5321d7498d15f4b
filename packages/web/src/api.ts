/** The web portal's one transport: core's typed client, same origin, the HttpOnly cookie does the auth. */
import { PortalClient } from '@tools-portal/core/client';
import { ApiError } from '@tools-portal/core/errors';

export const api = new PortalClient({ baseUrl: '' });

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'unauthenticated';
}

/** docs/product.md §8: unlisted failures are only logged. */
export function logFailure(what: string, error: unknown): void {
  console.warn(`${what}:`, error instanceof Error ? error.message : error);
}
