/**
 * Authenticator codes (RFC 6238) with otpauth: SHA-1, 6 digits, 30-second steps, one step of
 * clock drift either way. A code is accepted once: the caller keeps the last accepted step.
 */
import * as OTPAuth from 'otpauth';

const PERIOD_SECONDS = 30;
const SECRET_BYTES = 20; // 160 bits

/** A new base32 secret of 160 bits. */
export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: SECRET_BYTES }).base32;
}

function totp(secret: string, { label = '', digits = 6, issuer = '' }: { label?: string; digits?: number; issuer?: string } = {}): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits, period: PERIOD_SECONDS, secret: OTPAuth.Secret.fromBase32(secret) });
}

/** The otpauth:// URI an authenticator app reads from the QR code; the issuer is the portal's name (PORTAL_NAME). */
export function totpUri(secret: string, { email, issuer }: { email: string; issuer: string }): string {
  return totp(secret, { label: email, issuer }).toString();
}

/** The code for a moment (tests, and the RFC's vectors with 8 digits). */
export function totpCode(secret: string, timestamp: number, digits = 6): string {
  return totp(secret, { digits }).generate({ timestamp });
}

/** The 30-second step a valid code belongs to (within one step of `timestamp`), or undefined. */
export function totpStep(secret: string, code: string, { timestamp, digits = 6 }: { timestamp: number; digits?: number }): number | undefined {
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return undefined;
  const delta = totp(secret, { digits }).validate({ token: code, timestamp, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
}
