/** The one place where errors become HTTP answers: `{"error": {"code", "message", "details"}}`. */
import { randomUUID } from 'node:crypto';
import { ApiError, httpStatus, type ErrorCode } from '@tools-portal/core';
import type { Context, Next } from 'koa';
import { translateDatabaseError } from '../db/errors.js';
import type { Logger } from '../logger.js';

// Errors Koa and its body parser raise, carrying a status of their own.
function fromHttpError(error: { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string }): ApiError | undefined {
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

export function errorHandler(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (caught) {
      const known =
        caught instanceof ApiError
          ? caught
          : (translateDatabaseError(caught) ?? fromHttpError(caught as Record<string, never>));
      const error = known ?? new ApiError('internal', 'internal error');
      if (!known) {
        const requestId = (ctx.state.requestId as string | undefined) ?? randomUUID();
        error.details.requestId = requestId;
        logger.error(`${ctx.method} ${ctx.path} failed`, { reqId: requestId, err: caught });
      } else if (error.code === 'unavailable') {
        logger.warn(`${ctx.method} ${ctx.path}: ${error.message}`, { reqId: ctx.state.requestId, err: caught });
      }
      ctx.status = httpStatus[error.code];
      if (error.code === 'too_many_requests' && typeof error.details.retryAfter === 'number') {
        ctx.set('Retry-After', String(error.details.retryAfter));
      }
      if (error.code === 'unavailable') ctx.set('Retry-After', '5');
      ctx.body = error.toJSON();
    }
  };
}
