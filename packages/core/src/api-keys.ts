/** API keys (docs/product.md §9): `apikey-` followed by 100 random letters or digits. */
import { randomString } from './random.js';

export const API_KEY_PREFIX = 'apikey-';
export const API_KEY_RANDOM_LENGTH = 100;

const API_KEY_PATTERN = /^apikey-[A-Za-z0-9]{100}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomString(API_KEY_RANDOM_LENGTH);
}

export function isApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** The form lists show: enough to recognise a key, too little to use it. */
export function maskApiKey(key: string): string {
  const random = key.slice(API_KEY_PREFIX.length);
  return `${API_KEY_PREFIX}${random.slice(0, 4)}…${random.slice(-4)}`;
}
