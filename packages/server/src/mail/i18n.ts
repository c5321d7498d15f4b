/**
 * The mail's words in the recipient's language: FormatJS over the catalogues of catalogue/ (ICU
 * messages with plurals), dates and lists as the language writes them. The web uses the same
 * library (react-intl), so both read one message format (docs/glossary.md).
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import type { Language } from '@tools-portal/core/languages';
import { de } from './catalogue/de.js';
import { en, type MailKey } from './catalogue/en.js';

export const MAIL_CATALOGUES: Record<Language, Record<MailKey, string>> = { en, de };

const cache = createIntlCache();
const intls = new Map<Language, IntlShape>();

function intlOf(language: Language): IntlShape {
  let intl = intls.get(language);
  if (!intl) {
    intl = createIntl(
      {
        locale: language,
        messages: MAIL_CATALOGUES[language],
        onError: (error) => {
          throw error;
        },
      },
      cache,
    );
    intls.set(language, intl);
  }
  return intl;
}

type Values = Record<string, string | number>;

/** What the templates write with: the language's messages, moments and lists, and the portal's name. */
export interface MailWords {
  language: Language;
  portalName: string;
  /** A message of the catalogue; `{portal}` is filled in. */
  t(key: MailKey, values?: Values): string;
  /** A moment as people read it in a mail, in UTC: `2026-11-23 14:05 UTC`, `23.11.2026, 14:05 UTC`. */
  when(at: number | Date): string;
  /** `a and b`, `a und b`. */
  list(items: string[]): string;
}

export function mailWords({ language, portalName }: { language: Language; portalName: string }): MailWords {
  const intl = intlOf(language);
  return {
    language,
    portalName,
    // Every message is plain text: `<` is a character, not a tag.
    t: (key, values) => String(intl.formatMessage({ id: key }, { portal: portalName, ...values }, { ignoreTag: true })),
    // English keeps the unambiguous ISO form the mails always had; German writes day.month.year.
    when: (at) =>
      language === 'en'
        ? `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`
        : `${intl.formatDate(at, { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })} UTC`,
    list: (items) => intl.formatList(items, { type: 'conjunction' }),
  };
}
