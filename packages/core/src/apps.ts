/** How the app list sorts apps into views (docs/product.md §2 and §9). */
import type { App } from './entities.js';

export const EXTERN_PREFIX = 'extern:';

export type AppView = 'prod' | 'dev';

export function isDevApp(app: Pick<App, 'url'>): boolean {
  return /-dev\/?$/.test(app.url);
}

export function isExternApp(app: Pick<App, 'name'>): boolean {
  return app.name.startsWith(EXTERN_PREFIX);
}

/** The prod view hides dev and extern apps; the dev view shows only dev apps. */
export function appsInView<T extends App>(apps: readonly T[], view: AppView): T[] {
  return apps.filter((app) => (view === 'dev' ? isDevApp(app) : !isDevApp(app) && !isExternApp(app)));
}

/** The Other Tools column: extern apps, shown without their prefix. */
export function externTools<T extends App>(apps: readonly T[]): T[] {
  return apps.filter(isExternApp).map((app) => ({ ...app, name: app.name.slice(EXTERN_PREFIX.length) }));
}

export function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name.localeCompare(b.name);
}
