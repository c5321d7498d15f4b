/**
 * Browser-test support: Debian's Chromium driven by playwright-core against a real portal (the
 * server's own test support) that serves the built bundle. Screenshots go to test-results/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestPortal, type TestPortal } from '../../../server/test/support.js';

export { ADMIN_EMAIL, ADMIN_PASSWORD, USER_PASSWORD, createApp, unique } from '../../../server/test/support.js';
export type { TestPortal } from '../../../server/test/support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
export const WEB_DIST = path.resolve(here, '../../dist');
const SCREENSHOTS = path.join(root, 'test-results/screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const LAPTOP = { width: 1366, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Whether the browser tests can run; under CI a missing Chromium is a failure, not a skip. */
export const chromiumAvailable = fs.existsSync(CHROMIUM);
if (!chromiumAvailable) {
  if (process.env.CI === 'true') throw new Error(`Chromium not found at ${CHROMIUM}: the browser tests cannot run under CI`);
  console.warn(`\n*** SKIPPING the web browser tests: no Chromium at ${CHROMIUM} (apt-get install -y chromium) ***\n`);
}

export function startWebPortal(env: Record<string, string> = {}): Promise<TestPortal> {
  return startTestPortal({ WEB_ROOT: WEB_DIST, ...env });
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that records console problems; `problems()` lists CSP violations and uncaught errors. */
export interface WatchedPage extends Page {
  problems(): string[];
}

/** A fresh context (its own cookies) at a viewport, with one watched page. */
export async function openPage(browser: Browser, viewport = LAPTOP): Promise<{ context: BrowserContext; page: WatchedPage }> {
  const context = await browser.newContext({ viewport });
  const page = (await context.newPage()) as WatchedPage;
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (apply|load|execute)/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.problems = () => [...problems];
  return { context, page };
}

/** Opens a hash route of the portal, e.g. `/applist`. */
export async function goto(page: Page, portal: TestPortal, route: string): Promise<void> {
  await page.goto(`${portal.url}/auth/#${route}`);
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
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${suffix}.png`), fullPage: true });
}

/** The texts of one column of the table with the given accessible name. */
export async function columnTexts(page: Page, table: string, column: number): Promise<string[]> {
  return page.getByRole('table', { name: table }).locator(`tbody tr:not(.empty-row) td:nth-child(${column})`).allInnerTexts();
}
