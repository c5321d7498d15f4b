/**
 * Google sign-in against a real OpenID provider (oidc-provider on 127.0.0.1), driven the way a
 * browser drives it: cookies kept, redirects followed, the provider's login and consent forms
 * submitted. Tampering happens where a browser could do it: in the URLs it is sent to.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { DEFAULT_REDIRECT } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser, type Landing, type NavigateOptions } from './support/browser.js';
import { startTestProvider, type TestAccount, type TestProvider } from './support/google-issuer.js';
import { createApp, startTestPortal, unique, type TestPortal } from './support/support.js';

const STAFF_DOMAIN = 'staff.example';
const CALLBACK = '/auth/google/callback';
const corpus = fs
  .readFileSync(new URL('../../../fixtures/openredirects/openredirects.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.length > 0);

let idp: TestProvider;
let portal: TestPortal;

beforeAll(async () => {
  idp = await startTestProvider();
  portal = await startTestPortal({
    GOOGLE_CLIENT_ID: idp.clientId,
    GOOGLE_CLIENT_SECRET: idp.clientSecret,
    OIDC_ISSUER: idp.issuer,
    STAFF_EMAIL_DOMAIN: STAFF_DOMAIN,
    // The redirect corpus starts 558 sign-ins from one address; the limit has tests of its own.
    GOOGLE_STARTS_PER_ADDRESS: '100000',
  });
  idp.allowRedirectUri(`${portal.url}${CALLBACK}`);
});

afterAll(async () => {
  await portal?.close();
  await idp?.close();
});

interface FlowOptions extends NavigateOptions {
  redirect?: string;
  token?: string;
  browser?: TestBrowser;
  /** Confirm it's you: confirm the browser's signed-in session with Google. */
  confirm?: boolean;
}

interface Flow {
  landing: Landing;
  browser: TestBrowser;
  /** The session cookie the portal set, if it did. */
  session: string | undefined;
  /** Whether the provider asked for the account (its login form), rather than using its own session. */
  askedToSignIn: boolean;
}

const isCallback = (url: URL) => url.origin === portal.url && url.pathname === CALLBACK;
const landedAt = (flow: Flow) => flow.landing.url.href;
const portalPage = (hashPath: string) => `${portal.url}/auth/#${hashPath}`;
const FAILED_LOGIN = () => portalPage('/failedlogin');

/** Starts Google sign-in at the portal and walks through the provider's login and consent forms. */
async function signInWithGoogle(account: TestAccount, options: FlowOptions = {}): Promise<Flow> {
  const browser = options.browser ?? new TestBrowser();
  const query = new URLSearchParams();
  if (options.redirect !== undefined) query.set('redirect', options.redirect);
  if (options.token !== undefined) query.set('token', options.token);
  if (options.confirm) query.set('confirm', '1');
  let landing = await browser.navigate(`${portal.url}/auth/google${query.size > 0 ? `?${query}` : ''}`, options);
  let askedToSignIn = false;
  for (let form = 0; form < 3 && landing.url.origin === idp.issuer && landing.response?.status === 200; form++) {
    const login = landing.body.includes('name="login"');
    askedToSignIn ||= login;
    landing = await browser.submit(landing, login ? { login: account.sub } : {}, options);
  }
  return { landing, browser, session: browser.cookie(portal.url, 'accesstoken'), askedToSignIn };
}

function newAccount(claims: Partial<TestAccount> = {}): TestAccount {
  return idp.addAccount({ email: `${unique('g')}@example.org`, email_verified: true, ...claims });
}

/** The events the log holds about one user (the log is newest first). */
async function eventsOf(user: string): Promise<string[]> {
  const page = await portal.admin.logs.page(1, 100);
  return page.filter((entry) => entry.user === user).map((entry) => entry.event);
}

async function expectRefused(flow: Flow, user: string, reason: RegExp): Promise<void> {
  expect(landedAt(flow)).toBe(FAILED_LOGIN());
  expect(flow.session).toBeUndefined();
  expect((await eventsOf(user))[0]).toMatch(reason);
}

describe('Google sign-in', () => {
  it('is offered on the login screen when configured', async () => {
    expect(await portal.anonymous.auth.options()).toMatchObject({ google: true, passwordReset: false, defaultLanguage: 'en' });
  });

  it('makes staff of the company domain admins, who land on the app list', async () => {
    const account = newAccount({ email: `${unique('ann')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    const flow = await signInWithGoogle(account);
    expect(landedAt(flow)).toBe(portalPage('/applist/'));
    expect(flow.session).toBeDefined();
    const me = await portal.client(flow.session).users.me();
    expect(me).toMatchObject({ email: account.email, admin: true, client: { name: 'Admin' } });

    const again = await signInWithGoogle(account);
    expect((await portal.client(again.session).users.me()).id).toBe(me.id);
    expect(await eventsOf(account.email)).toEqual(['login with Google', 'registered as staff admin with Google']);
  });

  it('signs in the user with the same email, links the Google account, and matches on it afterwards', async () => {
    const user = await portal.createUser();
    const account = newAccount({ email: user.email });
    const flow = await signInWithGoogle(account);
    expect(landedAt(flow)).toBe(portalPage('/applist/'));
    expect((await portal.client(flow.session).users.me()).id).toBe(user.user.id);
    expect((await eventsOf(user.email))[0]).toBe('login with Google (Google account linked)');

    // The Google account changes its address: the link by subject still finds the user.
    account.email = `${unique('renamed')}@example.org`;
    const renamed = await signInWithGoogle(account);
    expect((await portal.client(renamed.session).users.me()).id).toBe(user.user.id);
    expect((await eventsOf(user.email))[0]).toBe('login with Google');

    // Another Google account with the user's address does not take the user over.
    const other = newAccount({ email: user.email });
    await expectRefused(await signInWithGoogle(other), user.email, /linked to another Google account/);
  });

  it('registers an invited user from the invite token, with the invite client and apps', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const app = await createApp(portal.admin);
    const email = `${unique('invited')}@example.org`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [app.id] });
    const account = newAccount({ email });

    const flow = await signInWithGoogle(account, { token: invite.token });
    expect(landedAt(flow)).toBe(portalPage('/applist/'));
    const api = portal.client(flow.session);
    expect(await api.users.me()).toMatchObject({ email, admin: false, client: { id: client.id } });
    expect((await api.apps.list()).map((granted) => granted.id)).toEqual([app.id]);
    expect((await portal.admin.invites.list()).some((open) => open.token === invite.token)).toBe(false);
    expect((await eventsOf(email))[0]).toBe('registered with Google');

    // The invite is used up: another Google account cannot register with it.
    const latecomer = newAccount();
    await expectRefused(await signInWithGoogle(latecomer, { token: invite.token }), latecomer.email, /invitation cannot be used: .*already been used/);
  });

  it('registers the invited email even when the Google account has another address, and links that account', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = `${unique('work')}@example.org`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    const account = newAccount({ email: `${unique('private')}@gmail.example` });
    const flow = await signInWithGoogle(account, { token: invite.token });
    expect(await portal.client(flow.session).users.me()).toMatchObject({ email, client: { id: client.id } });
    const again = await signInWithGoogle(account);
    expect((await portal.client(again.session).users.me()).email).toBe(email);
  });

  it('refuses an account of a foreign domain without user or invite', async () => {
    const account = newAccount({ email: `${unique('stranger')}@elsewhere.example` });
    await expectRefused(await signInWithGoogle(account), account.email, /no user, invitation or staff domain/);
  });

  it('refuses an unverified email address, even of the staff domain', async () => {
    const account = newAccount({ email: `${unique('unverified')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN, email_verified: false });
    await expectRefused(await signInWithGoogle(account), account.email, /no verified email address/);
  });

  it('refuses a staff-domain address that Google does not vouch for with the hd claim', async () => {
    const account = newAccount({ email: `${unique('consumer')}@${STAFF_DOMAIN}` });
    await expectRefused(await signInWithGoogle(account), account.email, /hd claim/);
  });

  it('refuses a callback whose state was changed', async () => {
    const account = newAccount({ email: `${unique('state')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    const flow = await signInWithGoogle(account, {
      rewrite: (url) => {
        if (isCallback(url)) url.searchParams.set('state', 'forged-state');
        return url;
      },
    });
    expect(landedAt(flow)).toBe(FAILED_LOGIN());
    expect(flow.session).toBeUndefined();
    expect((await portal.admin.logs.page(1, 1))[0].event).toMatch(/Google sign-in refused: .*"state"/);
  });

  it('refuses a replayed callback, in the same browser and with the stolen cookie', async () => {
    const account = newAccount({ email: `${unique('replay')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    let callback: URL | undefined;
    let binding: string | undefined;
    const browser = new TestBrowser();
    const flow = await signInWithGoogle(account, {
      browser,
      rewrite: (url) => {
        if (isCallback(url)) {
          callback = url;
          binding = browser.cookie(url, 'google_login');
        }
      },
    });
    expect(flow.session).toBeDefined();
    expect(callback && binding).toBeTruthy();

    const sameBrowser = await browser.navigate(callback!);
    expect(sameBrowser.url.href).toBe(FAILED_LOGIN());
    const thief = new TestBrowser();
    thief.setCookie(portal.url, 'google_login', binding!, '/auth/google');
    const stolen = await thief.navigate(callback!);
    expect(stolen.url.href).toBe(FAILED_LOGIN());
    expect(thief.cookie(portal.url, 'accesstoken')).toBeUndefined();
    const events = (await portal.admin.logs.page(1, 2)).map((entry) => entry.event);
    expect(events).toEqual([
      'Google sign-in refused: unknown or already used Google sign-in',
      'Google sign-in refused: no Google sign-in was started in this browser',
    ]);
  });

  it('refuses a callback arriving in a browser that did not start the sign-in', async () => {
    const account = newAccount({ email: `${unique('csrf')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    const started = await signInWithGoogle(account, { stopBefore: isCallback });
    expect(isCallback(started.landing.url)).toBe(true);
    const victim = new TestBrowser();
    const landing = await victim.navigate(started.landing.url);
    expect(landing.url.href).toBe(FAILED_LOGIN());
    expect(victim.cookie(portal.url, 'accesstoken')).toBeUndefined();
  });

  it('refuses an ID token whose nonce is not the one the sign-in sent', async () => {
    const account = newAccount({ email: `${unique('nonce')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    const flow = await signInWithGoogle(account, {
      rewrite: (url) => {
        if (url.origin === idp.issuer && url.searchParams.has('nonce')) url.searchParams.set('nonce', 'forged-nonce');
        return url;
      },
    });
    expect(landedAt(flow)).toBe(FAILED_LOGIN());
    expect(flow.session).toBeUndefined();
    expect((await portal.admin.logs.page(1, 1))[0].event).toMatch(/Google sign-in refused: .*"nonce"/);
  });

  it('refuses a sign-in whose PKCE challenge was changed', async () => {
    const account = newAccount({ email: `${unique('pkce')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    const flow = await signInWithGoogle(account, {
      rewrite: (url) => {
        if (url.origin === idp.issuer && url.searchParams.has('code_challenge')) url.searchParams.set('code_challenge', 'A'.repeat(43));
        return url;
      },
    });
    expect(landedAt(flow)).toBe(FAILED_LOGIN());
    expect(flow.session).toBeUndefined();
    expect((await portal.admin.logs.page(1, 1))[0].event).toMatch(/Google sign-in refused: the token request was refused: invalid_grant/);
  });

  it('refuses a sign-in that was not finished in time', async () => {
    const account = newAccount({ email: `${unique('slow')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    const started = await signInWithGoogle(account, { stopBefore: isCallback });
    const binding = started.browser.cookie(portal.url + CALLBACK, 'google_login');
    const hash = createHash('sha256').update(binding!).digest('hex');
    expect(
      await portal.deps
        .db('oidc_logins')
        .where({ binding_hash: hash })
        .update({ expires_at: Date.now() - 1 }),
    ).toBe(1);
    const landing = await started.browser.navigate(started.landing.url);
    expect(landing.url.href).toBe(FAILED_LOGIN());
    expect((await portal.admin.logs.page(1, 1))[0].event).toBe('Google sign-in refused: the Google sign-in took too long and expired');
  });

  it('refuses when the provider answers with an error', async () => {
    const account = newAccount();
    const flow = await signInWithGoogle(account, {
      rewrite: (url) => {
        if (url.origin === idp.issuer && url.searchParams.has('nonce')) url.searchParams.set('prompt', 'none');
        return url;
      },
    });
    expect(landedAt(flow)).toBe(FAILED_LOGIN());
    expect((await portal.admin.logs.page(1, 1))[0].event).toBe('Google sign-in refused: the provider answered login_required');
  });

  it('sends a browser with a bare or garbled callback to Failed Login, never an error page', async () => {
    for (const query of ['', '?code=x&state=y', '?error=access_denied', '?state=%ff%fe&code[]=1']) {
      const response = await portal.fetch(`${CALLBACK}${query}`, { redirect: 'manual', headers: { cookie: 'google_login=nothing' } });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/auth/#/failedlogin');
    }
  });

  it('follows a redirect to a registered app, and to a portal page', async () => {
    const app = await createApp(portal.admin);
    const target = `${new URL(app.url).origin}/reports?id=7`;
    const account = newAccount({ email: `${unique('redirect')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    const flow = await signInWithGoogle(account, { redirect: target });
    expect(flow.session).toBeDefined();
    expect(landedAt(flow)).toBe(target);

    const toPortal = await signInWithGoogle(account, { redirect: '/auth/#/users' });
    expect(landedAt(toPortal)).toBe(portalPage('/users'));
  });

  it("sends a non-admin only to apps they may use: another app's origin lands where no app's does", async () => {
    const granted = await createApp(portal.admin);
    const other = await createApp(portal.admin);
    const user = await portal.createUser({ apps: [granted] });
    const account = newAccount({ email: user.email });
    const mine = `${new URL(granted.url).origin}/reports?id=7`;
    expect(landedAt(await signInWithGoogle(account, { redirect: mine }))).toBe(mine);
    const toOther = await signInWithGoogle(account, { redirect: `${new URL(other.url).origin}/reports?id=7` });
    const toNothing = await signInWithGoogle(account, { redirect: `https://${unique('nothing')}.example.com/reports?id=7` });
    expect(toOther.session).toBeDefined();
    expect(landedAt(toOther)).toBe(portalPage('/applist/'));
    expect(landedAt(toNothing)).toBe(landedAt(toOther));
  });

  it('falls back to the default target for every payload of the open-redirect corpus', async () => {
    expect(corpus.length).toBeGreaterThan(500);
    const followed: string[] = [];
    for (const payload of corpus) {
      const response = await portal.fetch(`/auth/google?redirect=${encodeURIComponent(payload)}`, { redirect: 'manual' });
      expect(response.headers.get('location')).toMatch(new RegExp(`^${idp.issuer}/`));
      const binding = /google_login=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';
      const row = await portal.deps
        .db('oidc_logins')
        .where({ binding_hash: createHash('sha256').update(binding).digest('hex') })
        .first();
      if (row?.redirect !== DEFAULT_REDIRECT) followed.push(payload);
    }
    expect(followed).toEqual([]);

    // And all the way through, for a few of them.
    const account = newAccount({ email: `${unique('corpus')}@${STAFF_DOMAIN}`, hd: STAFF_DOMAIN });
    for (const payload of ['//example.com', 'https://google.com', '/%2f%2fexample.com', '/https://example.com']) {
      const flow = await signInWithGoogle(account, { redirect: payload });
      expect(flow.session).toBeDefined();
      expect(landedAt(flow)).toBe(portalPage('/applist/'));
    }
  });
});

describe("Confirm it's you with Google (docs/oidc.md)", () => {
  const sessionRow = (token: string) =>
    portal.deps
      .db('sessions')
      .where({ token_hash: createHash('sha256').update(token).digest('hex') })
      .first('id', 'signed_in_at', 'amr');

  it('passes prompt=login and max_age=0 on to Google, and confirms the same session', async () => {
    const user = await portal.createUser();
    const account = newAccount({ email: user.email });
    const first = await signInWithGoogle(account);
    expect(first.askedToSignIn).toBe(true);
    const session = first.session!;
    const before = await sessionRow(session);
    expect(before.amr).toBe('fed');
    await portal.deps
      .db('sessions')
      .where({ id: before.id })
      .update({ signed_in_at: Date.now() - 60 * 60 * 1000 });

    // Without confirm, Google's own session answers at once; with it, Google asks again.
    const sent: URL[] = [];
    const confirmed = await signInWithGoogle(account, {
      browser: first.browser,
      confirm: true,
      redirect: '/auth/#/applist',
      rewrite: (url) => void sent.push(url),
    });
    const atGoogle = sent.find((url) => url.origin === idp.issuer && url.pathname.endsWith('/auth'));
    expect(atGoogle?.searchParams.get('prompt')).toBe('login');
    expect(atGoogle?.searchParams.get('max_age')).toBe('0');
    expect(confirmed.askedToSignIn).toBe(true);
    expect(landedAt(confirmed)).toBe(portalPage('/applist'));
    // The same session, confirmed now.
    expect(confirmed.session).toBe(session);
    const after = await sessionRow(session);
    expect(after.id).toBe(before.id);
    expect(Date.now() - Number(after.signed_in_at)).toBeLessThan(60_000);
    expect((await eventsOf(user.email))[0]).toBe('login with Google (confirming the session)');
  });

  it("refuses Google's answer when its auth_time is not a fresh sign-in", async () => {
    const user = await portal.createUser();
    const browser = new TestBrowser();
    browser.setCookie(portal.url, 'accesstoken', user.token);
    const before = await sessionRow(user.token);
    const flow = await signInWithGoogle(newAccount({ email: user.email, authAgeSeconds: 3600 }), { browser, confirm: true });
    expect(landedAt(flow)).toBe(FAILED_LOGIN());
    expect(Number((await sessionRow(user.token)).signed_in_at)).toBe(Number(before.signed_in_at));
  });

  it("refuses a Google account that is not the signed-in user's", async () => {
    const user = await portal.createUser();
    const browser = new TestBrowser();
    browser.setCookie(portal.url, 'accesstoken', user.token);
    const other = await portal.createUser();
    const flow = await signInWithGoogle(newAccount({ email: other.email }), { browser, confirm: true });
    expect(landedAt(flow)).toBe(FAILED_LOGIN());
    expect(flow.session).toBe(user.token);
  });
});
