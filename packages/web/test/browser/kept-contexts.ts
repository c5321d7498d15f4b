/**
 * Browser contexts that a test file's finished tests closed, kept for its next page with the same
 * options. A new page costs Chromium a renderer process (about half a second on 2 cores) and the
 * bundle a cold start (another half second); a kept one is reset in a tenth of that.
 *
 * A kept context is as a new one to the next test: no cookies or permissions, no listeners of its
 * own, a blank page at the asked viewport, and no web storage on the origin its page was left at
 * (the portal's web keeps nothing there; a test that stores on another origin must clear it). Its
 * HTTP cache stays, as a returning visitor's would. A context is not kept when its test left what
 * cannot be undone (a second page, an init script, a route, a clock, a DevTools session such as a
 * virtual authenticator, …): that one closes for real.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface ContextOptions {
  timezoneId?: string;
  locale?: string;
  /** A touch screen (and no mouse): a phone as its browser reports itself to media queries. */
  hasTouch?: boolean;
}

interface Kept {
  context: BrowserContext;
  page: Page;
}

type Emitter = { removeListener(event: string, listener: () => void): unknown };

/** The methods that add a listener to a context or page. */
const LISTENING = ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener'];

/** What a test can do to a context or page that a reset cannot undo. */
const ON_BOTH = ['addInitScript', 'route', 'routeFromHAR', 'routeWebSocket', 'exposeBinding', 'exposeFunction', 'setExtraHTTPHeaders'];
const IRREVERSIBLE = {
  context: [...ON_BOTH, 'newCDPSession', 'setOffline', 'setGeolocation', 'setHTTPCredentials'],
  page: [...ON_BOTH, 'emulateMedia', 'setDefaultTimeout', 'setDefaultNavigationTimeout'],
  clock: ['install', 'fastForward', 'pauseAt', 'resume', 'runFor', 'setFixedTime', 'setSystemTime'],
};

const shelves = new WeakMap<Browser, Map<string, Kept[]>>();

/**
 * A context with one page at this viewport: a kept one when the file has one for these options,
 * else a new one. The test closes it with `context.close()` as usual; that keeps it when it can.
 */
export async function keptOrNewContext(browser: Browser, viewport: { width: number; height: number }, options: ContextOptions): Promise<Kept> {
  const key = JSON.stringify(options);
  let byOptions = shelves.get(browser);
  if (!byOptions) shelves.set(browser, (byOptions = new Map()));
  let shelf = byOptions.get(key);
  if (!shelf) byOptions.set(key, (shelf = []));
  const kept = shelf.pop();
  if (kept) {
    await kept.page.setViewportSize(viewport);
    return kept;
  }
  const context = await browser.newContext({ viewport, ...options });
  const fresh = { context, page: await context.newPage() };
  keepOnClose(fresh, shelf);
  return fresh;
}

/**
 * Makes the context's `close` reset it onto the shelf, or close it when its test changed it
 * irreversibly (noticed by wrapping the methods that do) or it cannot be reset.
 */
function keepOnClose(kept: Kept, shelf: Kept[]): void {
  const { context, page } = kept;
  let changedIrreversibly = false;
  for (const [target, methods] of [
    [context, IRREVERSIBLE.context],
    [page, IRREVERSIBLE.page],
    [context.clock, IRREVERSIBLE.clock],
  ] as const) {
    callFirst(target, methods, () => (changedIrreversibly = true));
  }
  // The listeners added while lent, to be removed at the reset. (Not removeAllListeners:
  // Playwright's own, added when the context and page were made, must stay.)
  const listeners: Array<() => void> = [];
  for (const target of [context, page] as unknown as Emitter[]) {
    callFirst(target, LISTENING, (event, listener) => listeners.push(() => target.removeListener(event as string, listener as () => void)));
  }
  const removeListeners = () => {
    for (const remove of listeners.splice(0)) remove();
  };
  const close = context.close.bind(context);
  Object.defineProperty(context, 'close', {
    configurable: true,
    value: async (options?: Parameters<BrowserContext['close']>[0]) => {
      // A second close of the same lending, or a close of a context already on the shelf.
      if (shelf.includes(kept)) return;
      removeListeners();
      if (!changedIrreversibly && (await reset(context, page))) shelf.push(kept);
      else await close(options);
    },
  });
}

/** Makes each of these methods of `target` (when it has it) call `noticed` with its arguments first. */
function callFirst(target: object, methods: readonly string[], noticed: (...args: unknown[]) => void): void {
  for (const name of methods) {
    const original = (target as Record<string, unknown>)[name];
    if (typeof original !== 'function') continue;
    Object.defineProperty(target, name, {
      configurable: true,
      value: (...args: unknown[]) => {
        noticed(...args);
        return (original as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  }
}

/** Puts a context back as new; false when it cannot (the caller then closes it). */
async function reset(context: BrowserContext, page: Page): Promise<boolean> {
  if (page.isClosed() || context.pages().length !== 1) return false;
  try {
    if (/^https?:/.test(page.url())) {
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
    }
    await page.goto('about:blank');
    await context.clearCookies();
    await context.clearPermissions();
    return true;
  } catch {
    return false;
  }
}
