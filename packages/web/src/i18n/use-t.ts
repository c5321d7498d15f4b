/**
 * `t(key, values)`: a message of the catalogues (src/i18n/en.ts) in the reader's language, its key
 * checked by TypeScript. Values fill ICU arguments (`{count, plural, …}`, `{name}`).
 */
import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import type { MessageKey } from './en';

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function useT(): Translate {
  const intl = useIntl();
  return useCallback<Translate>((key, values) => intl.formatMessage({ id: key }, values), [intl]);
}
