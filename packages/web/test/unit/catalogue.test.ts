/**
 * The web's catalogues (src/i18n/, docs/glossary.md): every key in both languages, every key used
 * in src/, every message valid ICU with the same arguments in both languages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { de } from '../../src/i18n/de';
import { en, type MessageKey } from '../../src/i18n/en';
import { eventWordsKey } from '../../src/i18n/events.en';
import { eventTypes } from '@tools-portal/core/events';

const SOURCES = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    // The catalogues themselves (i18n/en.ts, de.ts and the parts spread into them, people.en.ts...) do not count as use.
    const catalogue = path.dirname(full) === path.join(SOURCES, 'i18n') && /(^|\.)(en|de)\.ts$/.test(entry.name);
    return /\.tsx?$/.test(entry.name) && !catalogue ? [full] : [];
  });
}

const argumentsOf = (message: string) => new Set([...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((match) => match[1]));

describe('the web catalogues', () => {
  it('have the same keys in English and German, none empty', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const [key, message] of [...Object.entries(en), ...Object.entries(de)]) expect(message.trim(), key).not.toBe('');
  });

  it('use every key somewhere in src/', () => {
    const code = sourceFiles(SOURCES)
      .map((file) => fs.readFileSync(file, 'utf8'))
      .join('\n');
    // The event types' descriptions are used by type (eventWordsKey): one for each type of core's catalogue.
    expect(Object.keys(en).filter((key) => key.startsWith('event.'))).toEqual(eventTypes.map(eventWordsKey));
    expect(Object.keys(en).filter((key) => !key.startsWith('event.') && !code.includes(`'${key}'`))).toEqual([]);
  });

  it('hold valid ICU messages with the same arguments in both languages', () => {
    for (const [locale, messages] of [
      ['en', en],
      ['de', de],
    ] as const) {
      const intl = createIntl({
        locale,
        messages,
        onError: (error) => {
          throw error;
        },
      });
      for (const key of Object.keys(en) as MessageKey[]) {
        const values = Object.fromEntries([...argumentsOf(en[key])].map((name) => [name, name === 'count' ? 2 : name]));
        expect(() => intl.formatMessage({ id: key }, values), `${locale} ${key}`).not.toThrow();
      }
    }
    for (const key of Object.keys(en) as MessageKey[]) expect([...argumentsOf(de[key])].sort(), key).toEqual([...argumentsOf(en[key])].sort());
    // Every message parsed twice, over 500 of them: seconds on the shared, loaded machine.
  }, 30_000);

  it('write German with Sie, never du', () => {
    for (const [key, message] of Object.entries(de)) expect(message, key).not.toMatch(/\b(du|dein|deine|dich|dir|euch)\b/);
  });
});
