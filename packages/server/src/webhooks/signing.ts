/**
 * Standard Webhooks signatures (docs/webhooks.md), made by the `standardwebhooks` package: never
 * by hand. A hook's secret is `whsec_` and 32 random bytes in base64, as the standard writes it.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_BYTES = 32;

export const newWebhookSecret = () => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

/** The headers of one attempt: the message id of every attempt, a fresh timestamp, a signature per secret (space-separated). */
export function signedHeaders({ secrets, messageId, at, body }: { secrets: string[]; messageId: string; at: Date; body: string }): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' '),
  };
}
