/** What the app list shows (docs/product.md §2), built on core's dev/prod/extern rules. */
import { appsInView, byName, externTools, type AppView } from '@tools-portal/core/apps';
import type { App } from '@tools-portal/core/entities';

export interface AppListColumns<T extends App = App> {
  /** The main column: prod or dev apps for admins; everything the server granted for others. */
  apps: T[];
  /** The Other Tools column: admins only. */
  otherTools: T[];
}

export function appListColumns<T extends App>(apps: readonly T[], admin: boolean, view: AppView): AppListColumns<T> {
  const sorted = [...apps].sort(byName);
  if (!admin) return { apps: sorted, otherTools: [] };
  return { apps: appsInView(sorted, view), otherTools: externTools(sorted) };
}

/** docs/product.md §1: a user with exactly one app goes straight to it. */
export function onlyAppUrl(apps: readonly App[]): string | null {
  return apps.length === 1 ? apps[0].url : null;
}
