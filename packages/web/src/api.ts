/** The web portal's one transport: core's typed client, same origin, the HttpOnly cookie does the auth. */
import { PortalClient } from '@tools-portal/core/client';
import { ApiError } from '@tools-portal/core/errors';

export const api = new PortalClient({ baseUrl: '' });

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'unauthenticated';
}

/** A 429's own message ("… try again in 5 minutes"), which screens show as it is; else undefined. */
export function tooManyRequestsMessage(error: unknown): string | undefined {
  return error instanceof ApiError && error.code === 'too_many_requests' ? error.message : undefined;
}

/** docs/product.md §8: unlisted failures are only logged. */
export function logFailure(what: string, error: unknown): void {
  console.warn(`${what}:`, error instanceof Error ? error.message : error);
}
