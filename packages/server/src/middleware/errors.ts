/** Errors thrown in the Koa stack become HTTP answers through the one error presenter (error-answers.ts). */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { asApiError, errorAnswer } from '../error-answers.js';
import type { Logger } from '../logger.js';

export function errorHandler(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (caught) {
      const { error, known } = asApiError(caught);
      if (!known) {
        const requestId = (ctx.state.requestId as string | undefined) ?? randomUUID();
        error.details.requestId = requestId;
        logger.error(`${ctx.method} ${ctx.path} failed`, { reqId: requestId, err: caught });
      } else if (error.code === 'unavailable') {
        logger.warn(`${ctx.method} ${ctx.path}: ${error.message}`, { reqId: ctx.state.requestId, err: caught });
      }
      const answer = errorAnswer(error);
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body;
    }
  };
}
