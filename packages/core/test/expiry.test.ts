import { describe, expect, it } from 'vitest';
import { expiryFrom, grantInput, parse } from '../src/index.js';

const NOW = Date.parse('2026-11-23T10:00:00Z');

describe('expiryFrom', () => {
  it('reads durations and dates', () => {
    expect(expiryFrom('7d', NOW)).toBe('2026-11-30T10:00:00.000Z');
    expect(expiryFrom('12h', NOW)).toBe('2026-11-23T22:00:00.000Z');
    expect(expiryFrom('30m', NOW)).toBe('2026-11-23T10:30:00.000Z');
    expect(expiryFrom('2w', NOW)).toBe('2026-12-07T10:00:00.000Z');
    expect(expiryFrom('2026-12-01T18:00:00Z', NOW)).toBe('2026-12-01T18:00:00.000Z');
  });
  it('answers undefined for anything else', () => {
    for (const text of ['soon', '0d', '7', 'd7', '-1d', '', '2026-13-45']) expect(expiryFrom(text, NOW), text).toBeUndefined();
  });
});

describe('grant expiries in the API schema', () => {
  it('takes ISO 8601 and refuses the rest naming the field', () => {
    expect(parse(grantInput, { appid: 1, expires: '2026-12-01T18:00:00Z' }).expires).toBe(Date.parse('2026-12-01T18:00:00Z'));
    expect(parse(grantInput, { appid: 1 }).expires).toBeUndefined();
    for (const expires of ['tomorrow', 1893456000000, '2026-12-01T18:00:00Z<x>', '']) {
      expect(() => parse(grantInput, { appid: 1, expires }), String(expires)).toThrow(/expires/);
    }
  });
});
