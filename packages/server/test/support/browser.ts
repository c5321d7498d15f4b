/**
 * The browser's part of a sign-in, over plain HTTP: a cookie jar (host-only cookies, paths,
 * expiry), redirects followed by hand, and HTML forms submitted. Only 127.0.0.1 is ever
 * contacted: a redirect anywhere else ends the navigation without a request.
 */

interface StoredCookie {
  name: string;
  value: string;
  origin: string;
  path: string;
}

export interface Landing {
  /** Where the navigation ended: the last URL fetched, or the first one it would not fetch. */
  url: URL;
  /** The last response, unless the navigation ended at a URL it did not fetch. */
  response?: Response;
  /** The body of the last response, when there was one. */
  body: string;
  /** Every URL requested, in order. */
  visited: URL[];
}

export interface NavigateOptions {
  /** Called with each URL before it is requested; answer a changed URL to tamper with the flow. */
  rewrite?: (url: URL) => URL | void;
  /** Ends the navigation before requesting a URL for which this answers true. */
  stopBefore?: (url: URL) => boolean;
}

const MAX_HOPS = 20;

function defaultPath(url: URL): string {
  const slash = url.pathname.lastIndexOf('/');
  return slash <= 0 ? '/' : url.pathname.slice(0, slash);
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (cookiePath === requestPath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

export class TestBrowser {
  private readonly jar = new Map<string, StoredCookie>();

  /** The value of a cookie the browser would send to `url`. */
  cookie(url: string | URL, name: string): string | undefined {
    const target = new URL(url);
    return this.cookiesFor(target).find((cookie) => cookie.name === name)?.value;
  }

  setCookie(url: string | URL, name: string, value: string, path = '/'): void {
    const origin = new URL(url).origin;
    this.jar.set(`${origin} ${path} ${name}`, { name, value, origin, path });
  }

  private cookiesFor(url: URL): StoredCookie[] {
    return [...this.jar.values()].filter((cookie) => cookie.origin === url.origin && pathMatches(cookie.path, url.pathname));
  }

  private store(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      let path = defaultPath(url);
      let expired = false;
      for (const attribute of attributes) {
        const [key, ...rest] = attribute.split('=');
        const argument = rest.join('=');
        const lower = key.toLowerCase();
        if (lower === 'path' && argument.startsWith('/')) path = argument;
        if (lower === 'max-age' && Number(argument) <= 0) expired = true;
        if (lower === 'expires' && Date.parse(argument) < Date.now()) expired = true;
      }
      const key = `${url.origin} ${path} ${name}`;
      if (expired) this.jar.delete(key);
      else this.jar.set(key, { name, value, origin: url.origin, path });
    }
  }

  /** One request with this browser's cookies; redirects are not followed. */
  async request(url: URL, init: RequestInit = {}): Promise<Response> {
    if (url.hostname !== '127.0.0.1') throw new Error(`the test browser only talks to 127.0.0.1, not ${url.href}`);
    const headers = new Headers(init.headers);
    const cookies = this.cookiesFor(url);
    if (cookies.length > 0) headers.set('cookie', cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }

  /** Opens a URL and follows redirects until a page answers, or until one leads away from 127.0.0.1. */
  async navigate(start: string | URL, options: NavigateOptions = {}, init?: RequestInit): Promise<Landing> {
    const visited: URL[] = [];
    let url = new URL(start);
    let requestInit = init;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      url = options.rewrite?.(new URL(url)) ?? url;
      if (url.hostname !== '127.0.0.1' || options.stopBefore?.(url)) return { url, body: '', visited };
      visited.push(url);
      const response = await this.request(url, requestInit);
      requestInit = undefined;
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return { url, response, body: await response.text(), visited };
      }
      await response.arrayBuffer();
      url = new URL(location, url);
    }
    throw new Error(
      `more than ${MAX_HOPS} redirects: ${visited
        .slice(0, 6)
        .map((hop) => hop.href)
        .join(' -> ')}`,
    );
  }

  /** Submits the first form of a page with the given fields, then follows where it leads. */
  async submit(page: Landing, fields: Record<string, string> = {}, options: NavigateOptions = {}): Promise<Landing> {
    const action = /<form[^>]*\baction="([^"]*)"/i.exec(page.body)?.[1];
    if (action === undefined) throw new Error(`no form on ${page.url.href}: ${page.body.slice(0, 200)}`);
    const target = new URL(
      action.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code))),
      page.url,
    );
    return this.navigate(target, options, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }
}
