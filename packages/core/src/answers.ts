/**
 * The shapes the REST API answers with, as zod schemas: the server's OpenAPI document is generated
 * from them (and the API tests check every answer against it). They describe entities.ts; an
 * answer may carry fields added later (loose objects), never fewer or differently typed ones.
 */
import { z } from 'zod';
import { errorCodes } from './errors.js';

const timestamp = z.string().describe('ISO 8601 timestamp');
const clientRef = z.looseObject({ id: z.number().int(), name: z.string() });

export const appAnswer = z.looseObject({ id: z.number().int(), name: z.string(), url: z.string(), description: z.string(), doclink: z.string() });
export const clientAnswer = clientRef;
export const userAnswer = z.looseObject({ id: z.number().int(), email: z.string(), name: z.string(), client: clientRef });
export const currentUserAnswer = z
  .looseObject({ id: z.number().int(), email: z.string(), name: z.string(), client: clientRef, admin: z.boolean() });
/** `GET /user/me`: the caller's second factors as well. */
export const meAnswer = currentUserAnswer.extend({
  mfa: z.boolean().describe('has a second factor: an authenticator app or a passkey'),
  totp: z.boolean().describe('has an authenticator app set up'),
  mfaEnrollmentRequired: z.boolean().describe('this session is restricted to setting up a second factor'),
});
export const registrationTokenAnswer = z
  .looseObject({
    id: z.number().int(),
    email: z.string(),
    token: z.string(),
    sent_timestamp: timestamp,
    expires_timestamp: timestamp,
    client: clientRef,
    apps: z.array(z.number().int()),
  });
export const accessTokenAnswer = z
  .looseObject({
    id: z.number().int(),
    token: z.string().describe('masked (apikey-AbCd…wxyz)'),
    name: z.string().nullable(),
    createdTimestamp: timestamp,
    expiresTimestamp: timestamp.nullable(),
    lastUsedTimestamp: timestamp.nullable(),
    user: z.looseObject({ id: z.number().int(), email: z.string() }),
  });
export const logEntryAnswer = z
  .looseObject({ id: z.number().int(), timestamp, client: z.string(), user: z.string(), event: z.string() });
export const loginAnswer = z.looseObject({ accesstoken: z.string(), redirect: z.string() });
/** What a correct password gets when the account has a second factor: the pending sign-in. */
export const mfaChallengeAnswer = z.looseObject({ mfa: z.looseObject({ token: z.string(), methods: z.array(z.string()) }) });
export const passwordAnswer = z.union([loginAnswer, mfaChallengeAnswer]);
export const loginOptionsAnswer = z.looseObject({ google: z.boolean() });
export const passkeyAnswer = z.looseObject({ id: z.number().int(), name: z.string(), createdTimestamp: timestamp });

/** Every error answer: `{"error": {"code", "message", "details"}}`. */
export const errorAnswer = z
  .looseObject({
    error: z.looseObject({
      code: z.enum(errorCodes),
      message: z.string(),
      details: z.looseObject({ field: z.string().optional(), retryAfter: z.number().optional(), requestId: z.string().optional() }).optional(),
    }),
  });

/** The named answer shapes: the OpenAPI document's components. */
export const answerSchemas = {
  App: appAnswer,
  Client: clientAnswer,
  User: userAnswer,
  CurrentUser: currentUserAnswer,
  Me: meAnswer,
  RegistrationToken: registrationTokenAnswer,
  AccessToken: accessTokenAnswer,
  LogEntry: logEntryAnswer,
  LoginAnswer: loginAnswer,
  LoginOptions: loginOptionsAnswer,
  Passkey: passkeyAnswer,
  Error: errorAnswer,
} as const;
