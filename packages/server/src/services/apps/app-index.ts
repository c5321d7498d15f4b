/**
 * Which registered app a request is for (docs/product.md, Forward auth): by name, or the app whose URL
 * is the longest prefix of the original URL's normalized path (core's normalizeRequestPath).
 * Built once from the app list, then pure lookups.
 */
import { normalizeRequestPath, type App } from '@tools-portal/core';

interface Prefix {
  /** The app URL's normalized path, e.g. `/` or `/grafana/`, and the same in lower case. */
  path: string;
  lower: string;
  app: App;
}

export type AppMatch = { kind: 'app'; app: App } | { kind: 'none' } | { kind: 'ambiguous'; reason: string };

const NONE: AppMatch = { kind: 'none' };

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
  /** Origins where some app's path has an upper-case letter. */
  private readonly mixedCase = new Set<string>();

  constructor(apps: readonly App[]) {
    for (const app of apps) {
      this.byName.set(app.name, app);
      const url = parseHttpUrl(app.url);
      const path = url && normalizeRequestPath(url.pathname);
      if (!url || !path?.ok) continue;
      const list = this.byOrigin.get(url.origin) ?? [];
      list.push({ path: path.path, lower: path.path.toLowerCase(), app });
      this.byOrigin.set(url.origin, list);
    }
    // Stable: of two apps with the same URL, the first in the given order wins.
    for (const [origin, list] of this.byOrigin) {
      list.sort((a, b) => b.path.length - a.path.length);
      if (list.some((candidate) => candidate.lower !== candidate.path)) this.mixedCase.add(origin);
    }
  }

  named(name: string): App | undefined {
    return this.byName.get(name);
  }

  /**
   * The app whose URL is the longest prefix of `path` (normalized) at `origin`. Caddy matches
   * paths ignoring case, nginx does not: when ignoring case would pick another app, the path is
   * ambiguous.
   */
  match(origin: string, path: string): AppMatch {
    const candidates = this.byOrigin.get(origin);
    if (!candidates) return NONE;
    const exact = candidates.find((candidate) => covers(candidate.path, path));
    const lower = path.toLowerCase();
    // All in lower case on both sides: ignoring case cannot change the match.
    if (lower === path && !this.mixedCase.has(origin)) return exact ? { kind: 'app', app: exact.app } : NONE;
    const folded = candidates.find((candidate) => covers(candidate.lower, lower));
    if (exact !== folded) return { kind: 'ambiguous', reason: 'a path whose app depends on letter case' };
    return exact ? { kind: 'app', app: exact.app } : NONE;
  }
}
