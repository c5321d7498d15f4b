/**
 * Which registered app a request is for (docs/product.md, Forward auth): by name, or the app whose URL
 * is the longest prefix of the original URL. Built once from the app list, then pure lookups.
 */
import type { App } from '@tools-portal/core';

interface Prefix {
  /** The app URL's path, e.g. `/` or `/grafana/`. */
  path: string;
  app: App;
}

function parseHttpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

// A prefix counts at a path-segment boundary only: `/app` covers `/app` and `/app/x`, not `/apple`.
function covers(prefix: string, path: string): boolean {
  if (prefix.endsWith('/')) return path.startsWith(prefix) || path === prefix.slice(0, -1);
  return path === prefix || path.startsWith(`${prefix}/`);
}

export class AppIndex {
  private readonly byName = new Map<string, App>();
  /** Per origin, the apps there with their paths, longest path first. */
  private readonly byOrigin = new Map<string, Prefix[]>();

  constructor(apps: readonly App[]) {
    for (const app of apps) {
      this.byName.set(app.name, app);
      const url = parseHttpUrl(app.url);
      if (!url) continue;
      const list = this.byOrigin.get(url.origin) ?? [];
      list.push({ path: url.pathname, app });
      this.byOrigin.set(url.origin, list);
    }
    // Stable: of two apps with the same URL, the first in the given order wins.
    for (const list of this.byOrigin.values()) list.sort((a, b) => b.path.length - a.path.length);
  }

  named(name: string): App | undefined {
    return this.byName.get(name);
  }

  /** The app whose URL is the longest prefix of `originalUrl` (scheme, host and port must match). */
  forUrl(originalUrl: string): App | undefined {
    const url = parseHttpUrl(originalUrl);
    if (!url) return undefined;
    const candidates = this.byOrigin.get(url.origin);
    return candidates?.find((candidate) => covers(candidate.path, url.pathname))?.app;
  }
}
