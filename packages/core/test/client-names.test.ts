import { describe, expect, it } from 'vitest';
import { ApiError, clientInput, clientNameConflict, clientUpdate, foldName, parse } from '../src/index.js';

const refusal = (name: unknown) => {
  try {
    parse(clientInput, { name });
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, field: error.details.field };
    throw error;
  }
  return undefined;
};

describe('client names (issue 12, point 7)', () => {
  it('are trimmed, so " Admin" and "Admin " are the name Admin', () => {
    expect(parse(clientInput, { name: ' Admin' })).toEqual({ name: 'Admin' });
    expect(parse(clientInput, { name: 'Admin ' })).toEqual({ name: 'Admin' });
    expect(parse(clientInput, { name: '\u00a0Acme\u3000' })).toEqual({ name: 'Acme' });
    expect(parse(clientUpdate, { id: 3, name: '  Acme  ' })).toEqual({ id: 3, name: 'Acme' });
  });

  it('refuse commas, controls and invisible characters, naming the field', () => {
    const bad = [
      'Acme, Admin',
      'Acme,Admin',
      'Acme\uff0cAdmin', // fullwidth comma: NFKC makes it a comma
      'Acme\ufe50Admin', // small comma
      'Ad\u200bmin', // zero-width space
      'Ad\u200cmin', // zero-width non-joiner
      'Ad\u200dmin', // zero-width joiner
      'Admin\u200d👩', // a joiner outside an emoji sequence
      'Ad\u2060min', // word joiner
      'Ad\ufeffmin', // zero-width no-break space inside
      'Ad\u00admin', // soft hyphen
      'Admin\u202e', // right-to-left override
      'Ad\u2066min\u2069', // bidi isolates
      'Ad\u180emin', // Mongolian vowel separator
      'Acme\nAdmin',
      'Acme\r\nAdmin',
      'Acme\tAdmin',
      'Acme\u0000',
      'Acme\u007f',
      'Acme\u0085Admin', // C1 next line
      'Acme\u2028Admin', // line separator
      'Acme\u2029Admin', // paragraph separator
      '\u200b',
      '   ',
      '',
    ];
    for (const name of bad) expect(refusal(name), JSON.stringify(name)).toEqual({ code: 'invalid_input', field: 'name' });
  });

  it('keep ordinary names, accents and scripts', () => {
    for (const name of [
      'Acme',
      'Acme GmbH',
      'Müller & Söhne',
      'Ádmin',
      'Administrators',
      'Admins',
      '東京',
      'O\u2019Brien',
      'Family 👩\u200d👩\u200d👧\u200d👦',
      '🏳️\u200d🌈 Team',
      'x'.repeat(200),
    ]) {
      expect(refusal(name), name).toBeUndefined();
    }
  });

  it('that fold to Admin are a conflict, except Admin itself', () => {
    for (const name of [
      'admin',
      'ADMIN',
      'aDmIn',
      '\uff21\uff24\uff2d\uff29\uff2e',
      '\uff41\uff44\uff4d\uff49\uff4e',
      '\u1d2c\u1d30\u1d39\u1d35\u1d3a',
      'Adm\u0131n',
      '\u{1d400}dmin',
    ]) {
      expect(clientNameConflict(name)?.code, name).toBe('conflict');
      expect(clientNameConflict(name)?.details.field).toBe('name');
    }
    expect(clientNameConflict('Admin')).toBeNull();
    expect(clientNameConflict('Acme')).toBeNull();
    expect(clientNameConflict('Ádmin')).toBeNull();
  });

  it('fold by NFKC and case', () => {
    expect(foldName('ＡＤＭＩＮ')).toBe('admin');
    expect(foldName('ſtraße')).toBe(foldName('STRASSE'));
  });
});
