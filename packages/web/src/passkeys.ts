/**
 * The browser's side of passkeys (WebAuthn, through @simplewebauthn/browser, loaded when first
 * needed). Browsers refuse an IP address as the relying party, so on a portal opened by IP the
 * screens say why instead of offering a ceremony that cannot work (docs/security.md).
 */
import type { PasskeySignIn } from '@tools-portal/core';
import { api } from './api';
import type { Translate } from './i18n/use-t';

const webauthn = () => import('@simplewebauthn/browser');

/** Why passkeys cannot work here (in the reader's words), or null when they can. */
export function passkeysUnavailable(t: Translate, hostname = window.location.hostname): string | null {
  if (isIpAddress(hostname)) return t('passkeys.ipAddress', { hostname });
  if (typeof window.PublicKeyCredential !== 'function') return t('passkeys.unsupported');
  return null;
}

function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.includes(':') || hostname.startsWith('[');
}

/** Runs the browser's authentication ceremony and signs in: alone, or finishing a pending sign-in. */
export async function signInWithPasskey(signIn: PasskeySignIn = {}) {
  const { startAuthentication } = await webauthn();
  const optionsJSON = (await api.auth.passkeyOptions(signIn.mfaToken)) as Parameters<typeof startAuthentication>[0]['optionsJSON'];
  const response = await startAuthentication({ optionsJSON });
  return api.auth.validatePasskey(response, signIn);
}

/** Runs the browser's registration ceremony and registers the passkey, named after the browser. */
export async function addPasskey() {
  const { startRegistration } = await webauthn();
  const optionsJSON = (await api.account.passkeys.options()) as Parameters<typeof startRegistration>[0]['optionsJSON'];
  const response = await startRegistration({ optionsJSON });
  return api.account.passkeys.register(response, browserName());
}

/** "Chrome on Linux", from the user agent: a passkey's first name, which the user may change. */
export function browserName(userAgent = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}
