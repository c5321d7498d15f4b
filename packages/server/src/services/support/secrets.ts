/** Hashing of the secrets we keep (session tokens, API keys): SHA-256, compared by index lookup. */
import { createHash } from 'node:crypto';

export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
