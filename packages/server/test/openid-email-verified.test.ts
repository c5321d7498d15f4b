/**
 * `email_verified` tells the truth (docs/oidc.md, issue 25 item 8): true only when the user proved
 * the mailbox — registered from an invitation that was sent by mail, used a password-reset link
 * that was sent by mail, or signed in with Google's verified claim for that very email. A copied
 * invite link, an admin's reset link that was not mailed, and users from before the change
 * (the bootstrap admin here) are not proof. Read the way apps read it: ID token and userinfo.
 */
import { isMfaChallenge, type App, type PasswordAnswer } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from './support/browser.js';
import { startTestProvider, type TestAccount, type TestProvider } from './support/google-issuer.js';
import { Browser, oidc, relyingParty, type RelyingParty } from './support/openid-rp.js';
import { startTestSmtp, type TestSmtp } from './support/smtp.js';
import { createApp, startTestPortal, unique, useTestPortal, USER_PASSWORD, type TestPortal } from './support/support.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const STAFF_DOMAIN = 'staff.example';
const NEW_PASSWORD = 'a fine new password';

interface OpenIdApp {
  app: App;
  rp: RelyingParty;
}

async function openIdApp(portal: TestPortal): Promise<OpenIdApp> {
  const app = await createApp(portal.admin);
  const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT], public: false, id_token_signed_response_alg: 'RS256' });
  return { app, rp: await relyingParty(portal.url, app.name, created.client_secret, REDIRECT) };
}

/** `email_verified` as the app sees it, for the user of a portal session: in the ID token and from userinfo (they agree). */
async function emailVerifiedOf(portal: TestPortal, { rp }: OpenIdApp, sessionToken: string): Promise<boolean> {
  const start = await rp.start({ scope: 'openid email' });
  const browser = new Browser(portal.url);
  browser.cookies.set('accesstoken', sessionToken);
  const { url } = await browser.navigate(start.url);
  const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
    expectedNonce: start.nonce,
  });
  const claims = tokens.claims()!;
  const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, claims.sub);
  expect(info.email_verified).toBe(claims.email_verified);
  expect(typeof claims.email_verified).toBe('boolean');
  return claims.email_verified as boolean;
}

/** The session of a reset's sign-in (these users have no second factor). */
function sessionOf(answer: PasswordAnswer): string {
  if (isMfaChallenge(answer)) throw new Error('a second factor was asked for');
  return answer.accesstoken;
}

const tokenInLink = (text: string) => /register\?token=([A-Za-z0-9_%-]+)/.exec(text)?.[1];
const resetTokenOf = (text: string) => /\/auth\/#\/reset\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

describe('with mail and Google sign-in configured', () => {
  let idp: TestProvider;
  let smtp: TestSmtp;
  let portal: TestPortal;
  let client: OpenIdApp;

  beforeAll(async () => {
    idp = await startTestProvider();
    smtp = await startTestSmtp();
    portal = await startTestPortal({
      SMTP_URL: smtp.url,
      MAIL_POLL_SECONDS: '1',
      MAIL_RETRY_SECONDS: '1',
      GOOGLE_CLIENT_ID: idp.clientId,
      GOOGLE_CLIENT_SECRET: idp.clientSecret,
      OIDC_ISSUER: idp.issuer,
      STAFF_EMAIL_DOMAIN: STAFF_DOMAIN,
    });
    idp.allowRedirectUri(`${portal.url}/auth/google/callback`);
    client = await openIdApp(portal);
  });

  afterAll(async () => {
    await portal?.close();
    await idp?.close();
    await smtp?.stop?.();
  });

  /** An invite (granting the app), mailed or not; answers its token and the invitee's email. */
  async function invite(send: boolean): Promise<{ email: string; token: string }> {
    const owner = await portal.admin.clients.create(unique('client'));
    const email = `${unique('invitee')}@example.com`;
    const created = await portal.admin.invites.create({ email, clientid: owner.id, apps: [client.app.id], send });
    if (!send) return { email, token: created.token };
    const [mail] = await smtp.waitFor(email);
    return { email, token: decodeURIComponent(tokenInLink(mail!.text)!) };
  }

  /** Google sign-in as a browser walks it: the portal, the provider's login and consent forms, back. */
  async function signInWithGoogle(account: TestAccount, inviteToken?: string): Promise<string> {
    const browser = new TestBrowser();
    let landing = await browser.navigate(`${portal.url}/auth/google${inviteToken ? `?token=${encodeURIComponent(inviteToken)}` : ''}`);
    for (let form = 0; form < 3 && landing.url.origin === idp.issuer && landing.response?.status === 200; form++) {
      landing = await browser.submit(landing, landing.body.includes('name="login"') ? { login: account.sub } : {});
    }
    const session = browser.cookie(portal.url, 'accesstoken');
    if (!session) throw new Error(`Google sign-in did not sign in: ${landing.url.href}`);
    return session;
  }

  it('is false for a user who registered with a copied invite link, and for users from before (the bootstrap admin)', async () => {
    const { token } = await invite(false);
    const { accesstoken } = await portal.anonymous.auth.register({ Token: token, Password: USER_PASSWORD });
    expect(await emailVerifiedOf(portal, client, accesstoken)).toBe(false);
    expect(await emailVerifiedOf(portal, client, portal.admin.token!)).toBe(false);
  });

  it('is true for a user who registered from an invitation sent by mail', async () => {
    const { token } = await invite(true);
    const { accesstoken } = await portal.anonymous.auth.register({ Token: token, Password: USER_PASSWORD });
    expect(await emailVerifiedOf(portal, client, accesstoken)).toBe(true);
  });

  it('becomes true when the user resets the password with a link from mail', async () => {
    const { email, token } = await invite(false);
    const { accesstoken } = await portal.anonymous.auth.register({ Token: token, Password: USER_PASSWORD });
    expect(await emailVerifiedOf(portal, client, accesstoken)).toBe(false);
    const asked = await portal.fetch('/api/auth/v1/forgotpassword', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Email: email }),
    });
    expect(asked.status).toBe(204);
    const [mail] = await smtp.waitFor(email);
    const signedIn = await portal.anonymous.auth.resetPassword({ Token: resetTokenOf(mail!.text), Password: NEW_PASSWORD });
    expect(await emailVerifiedOf(portal, client, sessionOf(signedIn))).toBe(true);
  });

  it("is true after Google sign-in with Google's verified claim for the user's email: registering from a copied invite, linking, staff", async () => {
    // Registering with Google from a copied invite link: Google vouches for the invite's email.
    const registered = await invite(false);
    const account = idp.addAccount({ email: registered.email, email_verified: true });
    expect(await emailVerifiedOf(portal, client, await signInWithGoogle(account, registered.token))).toBe(true);

    // A Google account of another email registering from a copied invite proves nothing about the invite's email.
    const other = await invite(false);
    const stranger = idp.addAccount({ email: `${unique('other')}@example.org`, email_verified: true });
    const session = await signInWithGoogle(stranger, other.token);
    expect((await portal.client(session).users.me()).email).toBe(other.email);
    expect(await emailVerifiedOf(portal, client, session)).toBe(false);

    // A password user (copied link) who signs in with Google of the same email once.
    const linked = await invite(false);
    const { accesstoken } = await portal.anonymous.auth.register({ Token: linked.token, Password: USER_PASSWORD });
    expect(await emailVerifiedOf(portal, client, accesstoken)).toBe(false);
    await signInWithGoogle(idp.addAccount({ email: linked.email, email_verified: true }));
    expect(await emailVerifiedOf(portal, client, await portal.login(linked.email, USER_PASSWORD))).toBe(true);

    // Staff made admins by Google sign-in.
    const staff = idp.addAccount({ email: `${unique('ann')}@${STAFF_DOMAIN}`, email_verified: true, hd: STAFF_DOMAIN });
    expect(await emailVerifiedOf(portal, client, await signInWithGoogle(staff))).toBe(true);
  });
});

describe('without mail', () => {
  const portal = useTestPortal();

  it("an admin's reset link (shown, not mailed) is not proof", async () => {
    const client = await openIdApp(portal);
    const user = await portal.createUser({ apps: [client.app] });
    const made = await portal.admin.users.passwordReset(user.user.id);
    expect(made.sent).toBe(false);
    const token = /\/auth\/#\/reset\/([A-Za-z0-9_-]+)/.exec(made.link)![1]!;
    const signedIn = await portal.anonymous.auth.resetPassword({ Token: token, Password: NEW_PASSWORD });
    expect(await emailVerifiedOf(portal, client, sessionOf(signedIn))).toBe(false);
  });
});
