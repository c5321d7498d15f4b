/**
 * The web portal's English words, in ICU message format (react-intl; docs/glossary.md), by screen
 * or piece. Every key is in de.ts too and used somewhere in src/ (test/unit/catalogue.test.ts).
 * Screens not converted yet keep their words in their own code.
 */
export const en = {
  'language.title': 'Language',
  'language.label': 'Language of the portal and of mail to you',
  'language.browser': "Your browser's ({language})",
  'language.saved': 'The portal now speaks {language}.',
  'language.failed': 'Your language could not be saved.',
  'language.name.en': 'English',
  'language.name.de': 'German',
} as const;

export type MessageKey = keyof typeof en;
