import { describe, expect, it } from 'vitest';
import { isLanguage, languageFor, negotiateLanguage } from '../src/languages.js';

describe('negotiateLanguage (Accept-Language)', () => {
  it('takes the first supported language, regions ignored', () => {
    expect(negotiateLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(negotiateLanguage('de-AT')).toBe('de');
    expect(negotiateLanguage('en-GB,de;q=0.5')).toBe('en');
    expect(negotiateLanguage('fr-FR,fr;q=0.9,de;q=0.8,en;q=0.7')).toBe('de');
    expect(negotiateLanguage('DE_ch')).toBe('de');
  });
  it('orders by weight, equal weights in the order given', () => {
    expect(negotiateLanguage('en;q=0.5,de;q=0.9')).toBe('de');
    expect(negotiateLanguage('de;q=0.8,en;q=0.8')).toBe('de');
    expect(negotiateLanguage('en;q=0.8, de;q=0.8')).toBe('en');
    expect(negotiateLanguage('fr, en ; q=0.3, de;Q=0.4')).toBe('de');
  });
  it('skips q=0 ("not this"), the wildcard and languages it does not speak', () => {
    expect(negotiateLanguage('de;q=0,en;q=0.1')).toBe('en');
    expect(negotiateLanguage('*')).toBeUndefined();
    expect(negotiateLanguage('fr-FR,it')).toBeUndefined();
    expect(negotiateLanguage('deu,english')).toBeUndefined();
  });
  it('answers undefined for nothing or nonsense, never throws', () => {
    for (const header of [undefined, null, '', ',,,', ';q=1', 'de;q=abc', '\u0000', 'x'.repeat(5000)]) {
      expect(() => negotiateLanguage(header)).not.toThrow();
    }
    expect(negotiateLanguage(undefined)).toBeUndefined();
    expect(negotiateLanguage('de;q=abc')).toBeUndefined();
  });
});

describe('languageFor', () => {
  it('the choice, else the browser, else the fallback', () => {
    expect(languageFor({ choice: 'en', acceptLanguage: 'de', fallback: 'de' })).toBe('en');
    expect(languageFor({ choice: null, acceptLanguage: 'de-CH', fallback: 'en' })).toBe('de');
    expect(languageFor({ acceptLanguage: ['fr', 'de'], fallback: 'en' })).toBe('de');
    expect(languageFor({ choice: null, acceptLanguage: 'fr', fallback: 'de' })).toBe('de');
    expect(languageFor({ fallback: 'en' })).toBe('en');
  });
});

describe('isLanguage', () => {
  it('is en or de, nothing else', () => {
    expect(isLanguage('de')).toBe(true);
    expect(isLanguage('en')).toBe(true);
    for (const value of ['DE', 'de-DE', 'fr', '', null, 1, undefined]) expect(isLanguage(value)).toBe(false);
  });
});
