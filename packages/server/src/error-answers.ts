/**
 * The one presenter of errors: every error answer, from the Koa stack and from forward auth's
 * fast path alike, is `{"error": {"code", "message", "details"}}` with the status of core's
 * `httpStatus` table (docs/architecture.md).
 */
import { ApiError, httpStatus, type ErrorCode } from '@tools-portal/core';
import { translateDatabaseError } from './db/errors.js';

/** An HTTP answer, before it is written. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function errorAnswer(error: ApiError): HttpAnswer {
  const headers: Record<string, string> = { 'Content-Type': JSON_TYPE };
  if (error.code === 'too_many_requests' && typeof error.details.retryAfter === 'number') headers['Retry-After'] = String(error.details.retryAfter);
  if (error.code === 'unavailable') headers['Retry-After'] = '5';
  return { status: httpStatus[error.code], headers, body: JSON.stringify(error.toJSON()) };
}

// Errors Koa and its body parser raise, carrying a status of their own.
function fromHttpError(error: { status?: number; statusCode?: number; expose?: boolean; message?: string }): ApiError | undefined {
  const status = error.status ?? error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const byStatus: Record<number, [ErrorCode, string]> = {
    400: ['invalid_input', 'body: is not valid JSON'],
    401: ['unauthenticated', 'not logged in'],
    403: ['forbidden', 'forbidden'],
    404: ['not_found', 'not found'],
    413: ['payload_too_large', 'body: is larger than the 1 MB limit'],
    415: ['invalid_input', 'body: unsupported content type'],
  };
  const [code, message] = byStatus[status] ?? ['invalid_input', error.expose && error.message ? error.message : 'bad request'];
  return new ApiError(code, message, code === 'invalid_input' || code === 'payload_too_large' ? { field: 'body' } : {});
}

/**
 * What to answer for anything thrown: an ApiError as it is, a database or HTTP error translated;
 * anything else is a bug (`known: false`): the caller logs it with a request id.
 */
export function asApiError(caught: unknown): { error: ApiError; known: boolean } {
  if (caught instanceof ApiError) return { error: caught, known: true };
  const translated = translateDatabaseError(caught) ?? (caught && typeof caught === 'object' ? fromHttpError(caught) : undefined);
  return translated ? { error: translated, known: true } : { error: new ApiError('internal', 'internal error'), known: false };
}
