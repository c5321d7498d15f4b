/**
 * Brute-force limits (docs/security.md): at most LOGIN_FAILURES_PER_EMAIL password checks for one
 * email, and LOGIN_FAILURES_PER_ADDRESS from one address, are *started* per window; the failure
 * that reaches a limit bans the subject for the ban time. The subjects and the policy live here;
 * the regulator (services/sign-in/regulator.ts) admits, reserves, releases and bans.
 */
import { ApiError } from '@tools-portal/core';

export interface BruteForcePolicy {
  loginFailuresPerEmail: number;
  loginFailuresPerAddress: number;
  loginWindowMinutes: number;
  loginBanMinutes: number;
}

/** A device is a browser with a device cookie (services/sign-in/login-devices.ts); it has the email's limit. */
type Kind = 'email' | 'address' | 'device';

/** One subject whose attempts are counted: an email or an address. */
export interface Subject {
  kind: Kind;
  subject: string;
}

export const emailSubject = (email: string): Subject => ({ kind: 'email', subject: email.slice(0, 254) });
export const addressSubject = (ip: string): Subject => ({ kind: 'address', subject: ip.slice(0, 254) });
export const deviceSubject = (hash: string): Subject => ({ kind: 'device', subject: hash });

export { banRemaining } from './regulator.js';

export function tooManyAttempts(retryAfter: number): ApiError {
  return new ApiError('too_many_requests', `too many failed logins; try again in ${Math.ceil(retryAfter / 60)} minutes`, {
    retryAfter,
  });
}
