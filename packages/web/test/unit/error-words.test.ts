/** A refusal in the reader's words (src/i18n/error-words.ts): English keeps the server's reason; German says known codes and fields itself. */
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@tools-portal/core/errors';
import { de } from '../../src/i18n/de';
import { en, type MessageKey } from '../../src/i18n/en';
import { reasonFor } from '../../src/i18n/error-words';
import type { Translate } from '../../src/i18n/use-t';

const translate = (locale: 'en' | 'de'): Translate => {
  const intl = createIntl({ locale, messages: locale === 'de' ? de : en });
  return (key: MessageKey, values) => intl.formatMessage({ id: key }, values);
};

describe('the reason a refusal shows', () => {
  it("is the server's reason in English, without the field's name in front", () => {
    const error = new ApiError('invalid_input', 'email: must be an email address', { field: 'email' });
    expect(reasonFor(error, 'en', translate('en'))).toBe('must be an email address');
    expect(reasonFor(new ApiError('forbidden', 'admins only'), 'en', translate('en'))).toBe('admins only');
  });

  it('names a known field and says a known code in German', () => {
    const de = translate('de');
    expect(reasonFor(new ApiError('invalid_input', 'email: must be an email address', { field: 'email' }), 'de', de)).toBe(
      'Bitte prüfen Sie das Feld „E-Mail“.',
    );
    expect(reasonFor(new ApiError('forbidden', 'admins only'), 'de', de)).toBe('Dazu fehlt Ihnen die Berechtigung.');
    expect(reasonFor(new ApiError('too_many_requests', 'too many attempts', { retryAfter: 61 }), 'de', de)).toBe(
      'Zu viele Versuche; versuchen Sie es in 2 Minuten noch einmal.',
    );
  });

  it("keeps the server's English reason for what the web cannot say itself", () => {
    const de = translate('de');
    expect(reasonFor(new ApiError('conflict', 'a client with this name already exists'), 'de', de)).toBe('a client with this name already exists');
    expect(reasonFor(new ApiError('invalid_input', 'secret: too short', { field: 'secret' }), 'de', de)).toBe('too short');
    expect(reasonFor(new Error('network'), 'de', de)).toBeUndefined();
  });
});
