/** Whether a load failed because the id names nothing: not found, or not an id at all. */
import { ApiError } from '@tools-portal/core/errors';

export function isMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'not_found' || error.code === 'invalid_input');
}
