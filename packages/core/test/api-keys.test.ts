import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, generateApiKey, isApiKey, maskApiKey, randomString, randomToken } from '../src/index.js';

describe('API keys', () => {
  it('are apikey- and 100 letters or digits', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^apikey-[A-Za-z0-9]{100}$/);
    expect(isApiKey(key)).toBe(true);
  });

  it('differ every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
  });

  it('use the whole alphabet about evenly', () => {
    const counts = new Map<string, number>();
    for (const char of randomString(62 * 400)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(250);
      expect(count).toBeLessThan(560);
    }
  });

  it('are recognised only in their exact form', () => {
    expect(isApiKey(`${API_KEY_PREFIX}${'a'.repeat(99)}`)).toBe(false);
    expect(isApiKey(`${API_KEY_PREFIX}${'a'.repeat(101)}`)).toBe(false);
    expect(isApiKey(`APIKEY-${'a'.repeat(100)}`)).toBe(false);
    expect(isApiKey(`${API_KEY_PREFIX}${'a'.repeat(99)}-`)).toBe(false);
  });

  it('mask to their first and last four', () => {
    const key = `apikey-AbCd${'x'.repeat(92)}wxyz`;
    expect(maskApiKey(key)).toBe('apikey-AbCd…wxyz');
  });

  it('session tokens carry 256 random bits in base64url', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
  });
});
