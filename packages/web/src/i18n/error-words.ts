/**
 * How a refusal of the server reads (docs/web.md, Languages): the API's messages stay English
 * (scripts parse them), so the web says known error codes and fields in its own words; in English
 * those are the server's own reasons (the product's words), otherwise the server's English reason
 * is shown as it came.
 */
import { ApiError, type ErrorCode } from '@tools-portal/core/errors';
import { tooManyRequestsMessage } from '../api';
import type { MessageKey } from './en';
import type { Translate } from './use-t';

/** Codes whose meaning needs no detail from the server. `conflict` and `invalid_input` carry one. */
const CODE_WORDS: Partial<Record<ErrorCode, MessageKey>> = {
  unauthenticated: 'error.unauthenticated',
  forbidden: 'error.forbidden',
  mfa_enrollment_required: 'error.mfaEnrollmentRequired',
  session_required: 'error.sessionRequired',
  not_found: 'error.notFound',
  payload_too_large: 'error.payloadTooLarge',
  too_many_requests: 'error.tooManyRequests',
  unavailable: 'error.unavailable',
  internal: 'error.internal',
};

/** Fields the forms name, in the reader's words; an unknown field keeps the server's reason. */
const FIELD_WORDS: Record<string, MessageKey> = {
  email: 'login.email',
  Email: 'login.email',
  name: 'appForm.name',
  url: 'appForm.url',
  description: 'appForm.description',
  descriptionDe: 'appForm.descriptionDe',
  doclink: 'appForm.doclink',
  category: 'appForm.category',
  clientid: 'error.field.client',
  language: 'language.title',
};

/** The server's reason without the field's name in front, as it came. */
function serverReason(error: ApiError): string {
  const field = error.details.field;
  return field && error.message.startsWith(`${field}: `) ? error.message.slice(field.length + 2) : error.message;
}

/**
 * The reason to show for a refused call, or undefined for no ApiError. English readers get the
 * server's reason; others the web's words for a known code or field, else the server's reason.
 */
export function reasonFor(error: unknown, language: string, t: Translate): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const english = serverReason(error);
  if (language === 'en') return english;
  const field = error.details.field;
  if (error.code === 'invalid_input' && field && FIELD_WORDS[field]) return t('error.invalidField', { field: t(FIELD_WORDS[field]) });
  const words = CODE_WORDS[error.code];
  if (!words) return english;
  const retryAfter = error.details.retryAfter;
  if (error.code === 'too_many_requests' && typeof retryAfter === 'number')
    return t('error.tooManyRequestsFor', { count: Math.max(1, Math.ceil(retryAfter / 60)) });
  return t(words);
}

/**
 * Too many attempts (429) in the reader's words: the server's own in English, else the web's with
 * the minutes to wait; undefined for any other refusal.
 */
export function tooManyAttemptsReason(error: unknown, language: string, t: Translate): string | undefined {
  return tooManyRequestsMessage(error) ? reasonFor(error, language, t) : undefined;
}
