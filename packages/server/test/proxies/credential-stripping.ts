/**
 * The cookie lists of the credential-stripping tests (docs/forward-auth.md): the portal's
 * `accesstoken` cookie in every position among the app's own, and what the app must get.
 */
export interface CookieCase {
  label: string;
  /** One Cookie header, or several (a client may send the list in pieces). */
  sent: string | string[];
  /** The app's cookies, as the app must receive them ('' for none). */
  kept: string;
}

export function cookieCases(token: string): CookieCase[] {
  return [
    { label: 'only', sent: `accesstoken=${token}`, kept: '' },
    { label: 'first', sent: `accesstoken=${token}; a=1`, kept: 'a=1' },
    { label: 'middle', sent: `a=1; accesstoken=${token}; b=2`, kept: 'a=1; b=2' },
    { label: 'last', sent: `a=1; b=2; accesstoken=${token}`, kept: 'a=1; b=2' },
    { label: 'without spaces', sent: `a=1;accesstoken=${token};b=2`, kept: 'a=1;b=2' },
    { label: 'beside lookalikes', sent: `xaccesstoken=1; accesstoken=${token}; accesstoken_x=2`, kept: 'xaccesstoken=1; accesstoken_x=2' },
    { label: 'in a second header', sent: ['a=1', `accesstoken=${token}`], kept: 'a=1' },
  ];
}
