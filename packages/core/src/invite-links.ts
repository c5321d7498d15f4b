/**
 * The registration link of an invite (docs/product.md §2: `{host}/{app}/register?token={token}`). The portal
 * serves it: the set-password screen, then on to the app; `auth` means the portal itself.
 */
export const PORTAL_APP = 'auth';

export function registrationLink(publicUrl: string, token: string, appName: string = PORTAL_APP): string {
  return `${publicUrl.replace(/\/+$/, '')}/${encodeURIComponent(appName)}/register?token=${encodeURIComponent(token)}`;
}

/**
 * Password reset in the web portal: the screen that asks for a link, and, with a token, the one
 * that sets the new password (`{PUBLIC_URL}/auth/#/reset/{token}`).
 */
export function passwordResetLink(publicUrl: string, token?: string): string {
  const base = `${publicUrl.replace(/\/+$/, '')}/auth/#/reset`;
  return token === undefined ? base : `${base}/${encodeURIComponent(token)}`;
}

/** The web portal's Access Tokens page, where a user deletes their API keys (`{PUBLIC_URL}/auth/#/accesstokens`). */
export function accessTokensLink(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/#/accesstokens`;
}
