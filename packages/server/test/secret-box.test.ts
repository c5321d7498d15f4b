/**
 * SECRET_KEY and the encryption of secrets at rest (services/support/secret-box.ts, docs/security.md):
 * authenticated AES-256-GCM that refuses any altered byte, a key file of mode 0600 beside a SQLite
 * database that a restart reuses, and 503 naming SECRET_KEY on PostgreSQL without a key.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { ApiError } from '@tools-portal/core';
import { ConfigError, createLogger, keyFileFor, loadConfig, SecretBox, SecretBoxError } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect } from './support/database.js';
import { createApp, failure, startTestPortal } from './support/support.js';

const box = new SecretBox(randomBytes(32));

/** The sealed value with one byte of its `part`-th dot-separated part flipped. */
function flip(sealed: string, part: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  it('reads back what it sealed, with a fresh nonce each time and nothing of the plaintext visible', () => {
    const a = box.encrypt('JBSWY3DPEHPK3PXP', 'totp:1');
    const b = box.encrypt('JBSWY3DPEHPK3PXP', 'totp:1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain('JBSWY3DP');
    expect(box.decryptText(a, 'totp:1')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a tampered nonce, ciphertext or tag, another purpose, another key, and garbage', () => {
    const sealed = box.encrypt('secret value', 'totp:1');
    for (const part of [2, 3, 4]) expect(() => box.decrypt(flip(sealed, part), 'totp:1')).toThrow(SecretBoxError);
    expect(() => box.decrypt(sealed.replace(/^v1/, 'v2'), 'totp:1')).toThrow(SecretBoxError);
    expect(() => box.decrypt(sealed, 'totp:2')).toThrow(SecretBoxError);
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed, 'totp:1')).toThrow(/another SECRET_KEY/);
    const truncated = sealed.split('.');
    truncated[4] = truncated[4]!.slice(0, 8);
    expect(() => box.decrypt(truncated.join('.'), 'totp:1')).toThrow(SecretBoxError);
    for (const junk of ['', 'v1', 'v1....', 'v1.x.y.z.w', '\u0000'.repeat(50)]) expect(() => box.decrypt(junk, 'totp:1')).toThrow(SecretBoxError);
  });

  it('without a key answers 503 (unavailable) naming SECRET_KEY', () => {
    const none = new SecretBox(undefined);
    expect(none.available).toBe(false);
    try {
      none.encrypt('x', 'p');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('unavailable');
      expect((error as ApiError).message).toContain('SECRET_KEY');
    }
  });
});

describe('SECRET_KEY configuration', () => {
  it('takes base64 of 32 bytes (base64url too) and refuses anything else at start', () => {
    const key = randomBytes(32);
    expect(loadConfig({ SECRET_KEY: key.toString('base64') }).secretKey?.equals(key)).toBe(true);
    expect(loadConfig({ SECRET_KEY: key.toString('base64url') }).secretKey?.equals(key)).toBe(true);
    expect(loadConfig({}).secretKey).toBeUndefined();
    for (const bad of [randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), 'not base64 at all!', 'hunter2']) {
      try {
        loadConfig({ SECRET_KEY: bad });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as ConfigError).problems.join('\n')).toMatch(/^SECRET_KEY must be base64/);
        expect((error as ConfigError).message).not.toContain(bad);
      }
    }
  });
});

describe.runIf(testDialect() === 'sqlite')('without SECRET_KEY on SQLite', () => {
  it('creates a key file beside the database (mode 0600), says so, and a restart reuses it', async () => {
    const database = createTestDatabase('sqlite');
    const lines: string[] = [];
    const logger = createLogger('info', (line) => lines.push(line));
    try {
      const first = await startTestPortal({ SECRET_KEY: '' }, { database, logger });
      const file = keyFileFor(database.url)!;
      let sealed: string;
      try {
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        expect(lines.join('\n')).toContain(`created the key file ${file}`);
        sealed = first.deps.secrets.encrypt('kept across restarts', 'test');
      } finally {
        await first.close();
      }
      const second = await startTestPortal({ SECRET_KEY: '' }, { database, logger });
      try {
        expect(lines.join('\n')).toContain(`using the key file ${file}`);
        expect(second.deps.secrets.decryptText(sealed, 'test')).toBe('kept across restarts');
        expect(fs.readdirSync(file.replace(/[^/]+$/, '')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('uses SECRET_KEY when it is set and writes no key file', async () => {
    const database = createTestDatabase('sqlite');
    const key = randomBytes(32);
    try {
      const portal = await startTestPortal({ SECRET_KEY: key.toString('base64') }, { database });
      try {
        expect(fs.existsSync(keyFileFor(database.url)!)).toBe(false);
        expect(new SecretBox(key).decryptText(portal.deps.secrets.encrypt('x', 'p'), 'p')).toBe('x');
      } finally {
        await portal.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe.runIf(testDialect() === 'postgres')('without SECRET_KEY on PostgreSQL', () => {
  it('starts with a warning naming SECRET_KEY, and the key is unavailable (503)', async () => {
    const lines: string[] = [];
    const portal = await startTestPortal({ SECRET_KEY: '' }, { logger: createLogger('warn', (line) => lines.push(line)) });
    try {
      expect(lines.join('\n')).toMatch(/(WARN|"level":40).*SECRET_KEY is not set/);
      expect(portal.deps.secrets.available).toBe(false);
      expect(() => portal.deps.secrets.encrypt('x', 'p')).toThrow(/SECRET_KEY/);
      expect((await portal.fetch('/healthz')).status).toBe(200);
      // The calls that need the key answer 503 naming it: enabling an OpenID client, the provider.
      const app = await createApp(portal.admin);
      expect(await failure(portal.admin.apps.oidc.enable(app.id, { redirect_uris: ['https://wiki.example.com/cb'] }))).toMatchObject({
        code: 'unavailable',
        message: expect.stringContaining('SECRET_KEY'),
      });
      expect(await failure(portal.admin.oidc.rotateKeys())).toMatchObject({ code: 'unavailable' });
      const discovery = await portal.fetch('/.well-known/openid-configuration');
      expect(discovery.status).toBe(503);
      expect(JSON.stringify(await discovery.json())).toContain('SECRET_KEY');
      // Everything else works.
      expect((await portal.admin.apps.list()).some((each) => each.id === app.id)).toBe(true);
    } finally {
      await portal.close();
    }
  });
});
