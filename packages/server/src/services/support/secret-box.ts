/**
 * Secrets that must be read back (authenticator secrets, OpenID signing keys) are encrypted at
 * rest with SECRET_KEY: AES-256-GCM, a fresh 96-bit nonce per value, and a "purpose" string bound
 * in as additional authenticated data so that a ciphertext moved to another row or column fails
 * to decrypt. docs/security.md describes the format and docs/configuration.md the key.
 *
 * Format (text, safe in any column): `v1.<key id>.<nonce>.<ciphertext>.<tag>`, base64url parts.
 * The key id (8 hex digits of SHA-256 of the key) lets a value encrypted under another key be
 * told apart from a tampered one.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { ApiError } from '@tools-portal/core';
import { parseSecretKey, sqliteFile, SECRET_KEY_BYTES, type Config } from '../../config.js';
import type { Logger } from '../../logger.js';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBox {
  readonly keyId: string | undefined;

  /** `key` undefined: the box refuses every call with 503 naming SECRET_KEY (PostgreSQL without it). */
  constructor(private readonly key: Buffer | undefined) {
    if (key && key.length !== SECRET_KEY_BYTES) throw new Error(`a secret key has ${SECRET_KEY_BYTES} bytes`);
    this.keyId = key ? keyIdOf(key) : undefined;
  }

  get available(): boolean {
    return this.key !== undefined;
  }

  /** Throws the 503 that callers needing the key answer while SECRET_KEY is missing. */
  requireKey(): Buffer {
    if (!this.key) throw secretKeyMissing();
    return this.key;
  }

  encrypt(plaintext: string | Buffer, purpose: string): string {
    const key = this.requireKey();
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(`${VERSION}:${purpose}`, 'utf8'));
    const data = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
    return [VERSION, this.keyId, b64(nonce), b64(data), b64(cipher.getAuthTag())].join('.');
  }

  /** The plaintext; throws SecretBoxError when the value was altered, is not ours, or has another purpose. */
  decrypt(sealed: string, purpose: string): Buffer {
    const key = this.requireKey();
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed secret of a known version');
    const [, keyId, nonceText, dataText, tagText] = parts as [string, string, string, string, string];
    if (keyId !== this.keyId) throw new SecretBoxError(`sealed with another SECRET_KEY (key id ${keyId}, this key is ${this.keyId})`);
    const nonce = unb64(nonceText);
    const tag = unb64(tagText);
    if (nonce.length !== NONCE_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('malformed sealed secret');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(`${VERSION}:${purpose}`, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(unb64(dataText)), decipher.final()]);
    } catch {
      throw new SecretBoxError('sealed secret failed authentication (altered, or another purpose)');
    }
  }

  decryptText(sealed: string, purpose: string): string {
    return this.decrypt(sealed, purpose).toString('utf8');
  }
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export function secretKeyMissing(): ApiError {
  return new ApiError(
    'unavailable',
    'SECRET_KEY is not set: this call needs the key that encrypts secrets at rest; set SECRET_KEY (32 random bytes, base64) on every instance and restart (docs/configuration.md)',
  );
}

/** Where the key of a SQLite database lives when SECRET_KEY is not set: beside the database file. */
export function keyFileFor(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith('sqlite:')) return undefined;
  const file = sqliteFile(databaseUrl);
  return file === ':memory:' ? undefined : `${file}.secret-key`;
}

/**
 * The process's SecretBox: SECRET_KEY when set; on SQLite otherwise the key file beside the
 * database (created at the first start, mode 0600); on PostgreSQL otherwise none (a warning, and
 * the calls that need it answer 503): instances must share one key, which a file on one machine
 * cannot give them.
 */
export function openSecretBox(config: Pick<Config, 'secretKey' | 'databaseUrl'>, logger: Logger): SecretBox {
  if (config.secretKey) return new SecretBox(config.secretKey);
  if (!config.databaseUrl.startsWith('sqlite:')) {
    logger.warn(
      'SECRET_KEY is not set: on PostgreSQL every instance must share one key, so the calls that need it (authenticator apps, the OpenID provider) answer 503 until SECRET_KEY is set (docs/configuration.md)',
    );
    return new SecretBox(undefined);
  }
  const file = keyFileFor(config.databaseUrl);
  if (!file) {
    logger.warn('SECRET_KEY is not set and the database is in memory: using a key that lives as long as this process');
    return new SecretBox(randomBytes(SECRET_KEY_BYTES));
  }
  return new SecretBox(readOrCreateKeyFile(file, logger));
}

function readOrCreateKeyFile(file: string, logger: Logger): Buffer {
  // Written whole to a temporary file, then linked into place: of two processes starting at
  // once, one links its key and the other (EEXIST) reads that one; neither reads half a file.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temporary, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(temporary, file);
    logger.info(
      `SECRET_KEY is not set: created the key file ${file} (mode 0600) that encrypts secrets in the database; back it up with the database, or set SECRET_KEY to its content`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    logger.info(`SECRET_KEY is not set: using the key file ${file}`);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  const mode = fs.statSync(file).mode & 0o777;
  if (mode & 0o077) logger.warn(`the key file ${file} is readable by others (mode ${mode.toString(8)}); chmod 600 it`);
  const parsed = parseSecretKey(fs.readFileSync(file, 'utf8').trim());
  if (typeof parsed === 'string') throw new Error(`the key file ${file} ${parsed}`);
  return parsed;
}

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

const b64 = (data: Buffer) => data.toString('base64url');
const unb64 = (text: string) => Buffer.from(text, 'base64url');
