/** The web portal's German words (docs/glossary.md: Sie-form, the glossary's terms), with every key of en.ts. */
import type { MessageKey } from './en';

export const de: Record<MessageKey, string> = {
  'language.title': 'Sprache',
  'language.label': 'Sprache des Portals und Ihrer E-Mails',
  'language.browser': 'Wie Ihr Browser ({language})',
  'language.saved': 'Das Portal spricht jetzt {language}.',
  'language.failed': 'Ihre Sprache konnte nicht gespeichert werden.',
  'language.name.en': 'Englisch',
  'language.name.de': 'Deutsch',
};
