/**
 * Browser-test support: Debian's Chromium driven by playwright-core against a real portal (the
 * server's own test support) that serves the built bundle. Screenshots go to test-results/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Download, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, freePort, startTestPortal, type TestPortal } from '../../../server/test/support/support.js';
import { CHROMIUM_OPTIONS, chromiumAvailableFor } from '../../../server/test/support/chromium.js';
import { SESSION_COOKIE } from '../../../server/src/middleware/auth.js';
import { keptOrNewContext, type ContextOptions } from './kept-contexts';
import { AXE_FILE } from './test-web-root';

export { ADMIN_EMAIL, ADMIN_PASSWORD, createApp, unique } from '../../../server/test/support/support.js';
export type { TestPortal } from '../../../server/test/support/support.js';

/** The bootstrapped admin's sign-in, for `signIn`. */
export const ADMIN = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
export const WEB_DIST = path.resolve(here, '../../dist');
const SCREENSHOTS = path.join(root, 'test-results/screenshots');

export const LAPTOP = { width: 1366, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Whether the browser tests can run; under CI a missing Chromium is a failure, not a skip. */
export const chromiumAvailable = chromiumAvailableFor('the web browser tests');

/** A portal serving the bundle: the run's test web root (./test-web-root.ts), else the build itself. */
export function startWebPortal(env: Record<string, string> = {}, options: Parameters<typeof startTestPortal>[1] = {}): Promise<TestPortal> {
  return startTestPortal({ WEB_ROOT: inject('webRoot') ?? WEB_DIST, ...env }, options);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium that global setup started for the whole run (./global-setup.ts). */
    chromiumEndpoint: string | undefined;
    /** The build with axe-core beside it, made by global setup (./test-web-root.ts). */
    webRoot: string | undefined;
  }
}

/**
 * The run's Chromium (one for every browser test file, started by global setup) as a connection
 * of this file's own: closing it closes the contexts it opened and leaves the browser running.
 * Without the shared one (a project whose setup starts none), a Chromium of its own.
 */
function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM_OPTIONS);
}

/** The portal and browser of a test file, filled in before its first test (see `useBrowserPortal`). */
export interface BrowserPortal {
  portal: TestPortal;
  browser: Browser;
  /** The page the file's tests share; only when `useBrowserPortal` was given a `page` viewport. */
  page: WatchedPage;
}

export interface BrowserPortalOptions {
  /** The portal's environment; a function when it depends on something an earlier `beforeAll` starts. */
  env?: Record<string, string> | (() => Record<string, string>);
  portal?: Parameters<typeof startTestPortal>[1];
  /** Opens one page at this viewport for the file's tests to share. */
  page?: { width: number; height: number };
}

/**
 * The usual setup of a browser test file, in the spirit of the server's `useTestPortal`: a portal
 * serving the bundle and a Chromium, started before its tests (nothing without Chromium) and
 * closed after them. Hooks registered after this call run after it starts and before it closes.
 */
export function useBrowserPortal(options: BrowserPortalOptions = {}): BrowserPortal {
  const handle = {} as BrowserPortal;
  beforeAll(async () => {
    if (!chromiumAvailable) return;
    handle.portal = await startWebPortal(typeof options.env === 'function' ? options.env() : options.env, options.portal);
    handle.browser = await launchBrowser();
    if (options.page) handle.page = (await openPage(handle.browser, options.page)).page;
  });
  afterAll(async () => {
    await handle.browser?.close();
    await handle.portal?.close();
  });
  return handle;
}

/**
 * `useBrowserPortal` with PUBLIC_URL at `http://localhost:PORT` (`origin`, set before the tests):
 * Chromium refuses 127.0.0.1 as a passkey's relying party. `portal.url` is the same server by IP
 * address.
 */
export function useLocalhostBrowserPortal(env: Record<string, string> = {}): BrowserPortal & { origin: string } {
  let port = 0;
  beforeAll(async () => {
    if (chromiumAvailable) port = await freePort();
  });
  const web = useBrowserPortal({ env: () => ({ ...env, PORT: String(port), PUBLIC_URL: `http://localhost:${port}` }), portal: { keepPublicUrl: true } });
  return Object.defineProperty(web, 'origin', { get: () => `http://localhost:${port}` }) as BrowserPortal & { origin: string };
}

/**
 * A page that records console problems and its requests: `problems()` lists CSP violations and
 * uncaught errors; `requestsDone()` waits until none of its requests is under way.
 */
export interface WatchedPage extends Page {
  problems(): string[];
  /**
   * Resolves once no request of the page is under way, none having started over two frames (an
   * answer's render may fetch the next thing). Playwright's `networkidle` instead waits 500 ms
   * of quiet, and only once after each page load.
   */
  requestsDone(): Promise<void>;
}

/**
 * A context of its own (its own cookies and storage) at a viewport, with one watched page: a
 * context an earlier test of the file closed, reset, when there is one (./kept-contexts.ts).
 */
export async function openPage(browser: Browser, viewport = LAPTOP, options: ContextOptions = {}): Promise<{ context: BrowserContext; page: WatchedPage }> {
  const { context, page } = await keptOrNewContext(browser, viewport, options);
  return { context, page: watch(page) };
}

function watch(page: Page): WatchedPage {
  const watched = page as WatchedPage;
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (apply|load|execute)/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  watched.problems = () => [...problems];
  const underWay = new Set<Request>();
  let started = 0;
  page.on('request', (request) => {
    underWay.add(request);
    started++;
  });
  page.on('requestfinished', (request) => underWay.delete(request));
  page.on('requestfailed', (request) => underWay.delete(request));
  watched.requestsDone = async () => {
    const deadline = Date.now() + REQUESTS_DONE_LIMIT_MS;
    for (;;) {
      const before = started;
      if (underWay.size === 0) {
        await nextFrames(page);
        if (underWay.size === 0 && started === before) return;
      } else await new Promise((resolve) => setTimeout(resolve, 20));
      if (Date.now() > deadline) throw new Error(`requests still under way: ${[...underWay].map((request) => request.url()).join(', ')}`);
    }
  };
  return watched;
}

const REQUESTS_DONE_LIMIT_MS = 10_000;

/** Two animation frames of the page: what a step started has rendered (and its effects run). */
function nextFrames(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * The text of a finished download. Read as a stream: the run's Chromium is a remote browser to
 * the test files (`launchBrowser`), and Playwright gives no local path of a remote download.
 */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Opens a hash route of the portal, e.g. `/applist`. */
export async function goto(page: Page, portal: TestPortal, route: string): Promise<void> {
  await page.goto(`${portal.url}/auth/#${route}`);
}

/**
 * Signs in without the login screen, for tests of what comes after it: a session made through
 * the API (as the login screen makes it), its cookie on the page's context, then the launcher
 * opened and waited for: its user menu (folded away on a phone) says who is signed in, and the
 * page is in its language by then. Saves a test the login screen's load, render and form.
 */
export async function signIn(page: Page, portal: TestPortal, account: { email: string; password: string }): Promise<void> {
  const token = await portal.login(account.email, account.password);
  await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: portal.url, httpOnly: true, sameSite: 'Lax' }]);
  // A hash change would keep the running app and the session it read: it starts again to read this one.
  if (page.url().startsWith(portal.url)) await page.goto('about:blank');
  await goto(page, portal, '/applist');
  await page.locator('.user-menu-toggle').waitFor({ state: 'attached' });
}

export async function loginInBrowser(page: Page, portal: TestPortal, email: string, password: string): Promise<void> {
  await goto(page, portal, '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? LAPTOP.width;
  const suffix = width < 600 ? 'phone' : 'laptop';
  // Let the alert or modal that a step opened finish its paint before the picture.
  await nextFrames(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${suffix}.png`), fullPage: true });
}

/** The texts of one column of the table with the given accessible name. */
export async function columnTexts(page: Page, table: string, column: number): Promise<string[]> {
  return page.getByRole('table', { name: table }).locator(`tbody tr:not(.empty-row) td:nth-child(${column})`).allInnerTexts();
}

/** Waits until each of these terms of a description list is shown; a failure names the term. */
export async function expectTermsShown(page: Page, terms: string[]): Promise<void> {
  for (const term of terms) {
    const shown = () =>
      page
        .getByRole('term')
        .filter({ hasText: new RegExp(`^${term}$`) })
        .isVisible();
    await expect.poll(shown, { message: term }).toBe(true);
  }
}

/** The accessibility rules every screen and dialog must pass: WCAG 2.1 A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Runs axe-core in the page (loadAxe: the page's CSP is untouched) and answers its violations as
 * readable lines: rule, impact, and the elements at fault.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await loadAxe(page);
  // One call into the page for the waiting and the run (each call is a round trip through the
  // run's Playwright server). Let the step's alert or dialog finish its paint, and every transition
  // end, before looking: a button armed for its second click fades into its new colours over
  // 0.15 s, and half-way its contrast is neither's (a CI run caught `.btn-danger` so).
  return page.evaluate(async (tags) => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    );
    const axe = (
      window as unknown as {
        axe: {
          run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map(
      (violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
    );
  }, AXE_TAGS);
}

/**
 * Puts axe-core into the page unless it is there: on the portal's own page (its bundle's script
 * from /auth/assets/) as a script from the test web root (./test-web-root.ts), else, or when that
 * fails, through the protocol.
 */
async function loadAxe(page: Page): Promise<void> {
  const loaded = await page.evaluate(
    (source) =>
      new Promise<boolean>((resolve) => {
        if (typeof (window as unknown as { axe?: unknown }).axe !== 'undefined') return resolve(true);
        if (!document.querySelector('script[src^="/auth/assets/"]')) return resolve(false);
        const script = document.createElement('script');
        script.src = source;
        const settle = (event: Event) => {
          script.remove();
          resolve(event.type === 'load');
        };
        script.addEventListener('load', settle);
        script.addEventListener('error', settle);
        document.head.append(script);
      }),
    `/auth/${AXE_FILE}`,
  );
  if (!loaded) await page.evaluate(axeSource());
}

let axeScript: string | undefined;
function axeSource(): string {
  axeScript ??= fs.readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
  return axeScript;
}

/** Keyboard focus is inside the open dialog after `presses` Tabs and as many Shift+Tabs. */
export async function focusStaysInDialog(page: Page, presses = 12): Promise<boolean> {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let index = 0; index < presses; index++) {
      await page.keyboard.press(key);
      // Past the dialog's last element the browser may take focus to its own UI (the body is then
      // the active element); it must never land on the page behind.
      const inside = await page.evaluate(() => document.activeElement === document.body || Boolean(document.activeElement?.closest('dialog[open]')));
      if (!inside) return false;
    }
  }
  return true;
}

/** The accessible name (or text) of the focused element. */
export async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return element?.getAttribute('aria-label') ?? element?.innerText ?? '';
  });
}

/** Opens Account through the user menu (the email in the top bar). */
export async function openAccount(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
}

async function openUserMenu(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const toggle = nav.getByRole('button', { name: 'Toggle navigation' });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const menu = nav.locator('.user-menu-toggle');
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
}

/** Signs out through the user menu (the email in the top bar, then Sign out). */
export async function signOut(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
}

/** The names of the launcher's tiles, in the order shown. */
export async function tileNames(page: Page): Promise<string[]> {
  return page.locator('a.app-tile-link').allInnerTexts();
}
