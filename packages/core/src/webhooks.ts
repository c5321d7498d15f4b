/**
 * Webhooks (docs/webhooks.md): event-log entries pushed to receivers as Standard Webhooks. What an
 * admin sends (a URL and the event types or prefixes it takes), its validation, and what the API
 * answers.
 */
import { z } from 'zod';
import { eventTypes, WEBHOOK_TEST_EVENT } from './events.js';
import { isHttpUrl, MAX_TEXT_LENGTH, MAX_URL_LENGTH } from './validation.js';

/** How many deliveries `GET /webhook/{id}/delivery` lists, newest first. */
export const WEBHOOK_DELIVERY_LIST_SIZE = 100;

/** Why an event pattern is refused, or null: a type of the catalogue, or a prefix ending in `.` of at least one. */
export function webhookEventProblem(pattern: string): string | null {
  if (pattern.endsWith('.')) {
    return eventTypes.some((type) => type.startsWith(pattern) && type !== WEBHOOK_TEST_EVENT)
      ? null
      : `"${pattern}" is the prefix of no event type (docs/event-log.md lists them)`;
  }
  if (pattern === WEBHOOK_TEST_EVENT) return `"${pattern}" goes only to the hook tested (POST /webhook/{id}/test)`;
  return (eventTypes as readonly string[]).includes(pattern) ? null : `"${pattern}" is no event type (docs/event-log.md lists them; a prefix ends in .)`;
}

/** Whether an event-log type matches a hook's pattern (a type, or a prefix ending in `.`). */
export const webhookEventMatches = (pattern: string, type: string) => (pattern.endsWith('.') ? type.startsWith(pattern) : type === pattern);

const webhookUrl = z
  .string({ error: 'must be a string' })
  .max(MAX_URL_LENGTH, { error: `must be at most ${MAX_URL_LENGTH} characters` })
  .refine(isHttpUrl, { error: 'must be an absolute http(s) URL' })
  .refine((value) => !/^[a-z]+:\/\/[^/]*@/i.test(value), { error: 'must not carry a user name or password' })
  .refine((value) => !value.includes('#'), { error: 'must not contain a fragment' });

const webhookEvent = z
  .string({ error: 'must be a string' })
  .max(64, { error: 'must be at most 64 characters' })
  .superRefine((value, ctx) => {
    const problem = webhookEventProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const webhookEvents = z
  .array(webhookEvent, { error: 'must be a list of event types or prefixes ending in .' })
  .min(1, { error: 'must name at least one event type or prefix' })
  .max(100, { error: 'must name at most 100 event types or prefixes' })
  .transform((events) => [...new Set(events)]);

const description = z
  .string({ error: 'must be a string' })
  .max(MAX_TEXT_LENGTH, { error: `must be at most ${MAX_TEXT_LENGTH} characters` })
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { error: 'must not contain control characters' });

/** `POST /webhook`. */
export const webhookInput = z.object({ url: webhookUrl, events: webhookEvents, description: description.default('') });
export type WebhookInput = z.input<typeof webhookInput>;

/** `PUT /webhook/{id}`: what is given changes; `enabled: true` turns a disabled hook back on. */
export const webhookUpdate = z.object({
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  description: description.optional(),
  enabled: z.boolean({ error: 'must be true or false' }).optional(),
});
export type WebhookUpdate = z.input<typeof webhookUpdate>;

/** A hook as admins see it: never its secret. */
export const webhookAnswer = z.strictObject({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()).describe('event types, or prefixes ending in . (login.)'),
  description: z.string(),
  enabled: z.boolean(),
  warning: z.string().optional().describe('set for a plain http URL: the events travel unencrypted'),
});
export type Webhook = z.infer<typeof webhookAnswer>;

/** `POST /webhook` and `POST /webhook/{id}/secret`: the hook and its signing secret, shown this once. */
export const webhookSecretAnswer = webhookAnswer.extend({
  secret: z.string().describe('whsec_…: the Standard Webhooks signing secret, shown once'),
});
export type WebhookWithSecret = z.infer<typeof webhookSecretAnswer>;

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** One delivery of an entry to a hook (`GET /webhook/{id}/delivery`): never its body. */
export const webhookDeliveryAnswer = z.strictObject({
  id: z.number().int(),
  eventType: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  lastCode: z.number().int().nullable().describe("the receiver's last HTTP status; null when it did not answer"),
  durationMs: z.number().int().nullable().describe('how long the last attempt took'),
  error: z.string().nullable().describe('why the last attempt failed'),
  createdAt: z.string().describe('ISO 8601 timestamp'),
  deliveredAt: z.string().nullable().describe('ISO 8601 timestamp'),
});
export type WebhookDelivery = z.infer<typeof webhookDeliveryAnswer>;
