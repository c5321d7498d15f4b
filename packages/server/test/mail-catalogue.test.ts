/**
 * The mail's catalogues (src/mail/catalogue/, docs/glossary.md): every key in both languages, every
 * key used, every message valid ICU with the same arguments in both languages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAIL_CATALOGUES, mailWords } from '../src/mail/i18n.js';
import type { MailKey } from '../src/mail/catalogue/en.js';

const MAIL_SOURCES = fileURLToPath(new URL('../src/mail/', import.meta.url));
const { en, de } = MAIL_CATALOGUES;

/** The argument names of an ICU message: `{name}`, `{count, plural, …}`. */
const argumentsOf = (message: string) => new Set([...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((match) => match[1]));

describe('the mail catalogues', () => {
  it('have the same keys in English and German, none empty', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const [key, message] of [...Object.entries(en), ...Object.entries(de)]) expect(message.trim(), key).not.toBe('');
  });

  it('use every key in the templates', () => {
    const code = fs
      .readdirSync(MAIL_SOURCES)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => fs.readFileSync(path.join(MAIL_SOURCES, file), 'utf8'))
      .join('\n');
    const unused = Object.keys(en).filter((key) => !code.includes(`'${key}'`));
    expect(unused).toEqual([]);
  });

  it('hold valid ICU messages with the same arguments in both languages', () => {
    for (const language of ['en', 'de'] as const) {
      const words = mailWords({ language, portalName: 'P' });
      for (const key of Object.keys(en) as MailKey[]) {
        const values = Object.fromEntries([...argumentsOf(en[key])].map((name) => [name, name === 'count' || name === 'minutes' ? 2 : `<${name}>`]));
        expect(() => words.t(key, values), `${language} ${key}`).not.toThrow();
      }
    }
    for (const key of Object.keys(en) as MailKey[]) expect([...argumentsOf(de[key])].sort(), key).toEqual([...argumentsOf(en[key])].sort());
  });

  it('write German with Sie, never du', () => {
    for (const [key, message] of Object.entries(de)) expect(message, key).not.toMatch(/\b(du|dein|deine|dich|dir|euch|ihr)\b/);
  });
});
