/** The launcher's pure rules: search, grouping by category with favourites first, monograms. */
import { byName } from '@tools-portal/core/apps';
import type { App } from '@tools-portal/core/entities';

type Searchable = Pick<App, 'name' | 'description' | 'category'>;

/** Apps whose name, description or category contains every word of the query (any case). */
export function searchApps<T extends Searchable>(apps: readonly T[], query: string): T[] {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...apps];
  return apps.filter((app) => {
    const text = `${app.name}\n${app.description}\n${app.category}`.toLocaleLowerCase();
    return words.every((word) => text.includes(word));
  });
}

export interface AppGroup<T> {
  /** `Favourites`, a category, or null for the apps without one. */
  title: string | null;
  key: string;
  apps: T[];
}

export const FAVOURITES = 'Favourites';
export const UNCATEGORISED = 'Other apps';

/**
 * Favourites first, then one group per category (by name), then the apps without a category.
 * With no favourites and no categories there is one untitled group: the plain list.
 */
export function groupApps<T extends Searchable & { name: string; favourite?: boolean }>(apps: readonly T[]): AppGroup<T>[] {
  const sorted = [...apps].sort(byName);
  const favourites = sorted.filter((app) => app.favourite);
  const rest = sorted.filter((app) => !app.favourite);
  const categories = [...new Set(rest.map((app) => app.category).filter(Boolean))].sort((a, b) => a.localeCompare(b));
  const plain = rest.filter((app) => !app.category);
  if (favourites.length === 0 && categories.length === 0) return plain.length ? [{ title: null, key: '', apps: plain }] : [];
  const groups: AppGroup<T>[] = [];
  if (favourites.length) groups.push({ title: FAVOURITES, key: 'favourites', apps: favourites });
  for (const category of categories) groups.push({ title: category, key: `category:${category}`, apps: rest.filter((app) => app.category === category) });
  if (plain.length) groups.push({ title: UNCATEGORISED, key: 'uncategorised', apps: plain });
  return groups;
}

const MONOGRAM_COLOURS = 8;

/** The letter and colour of an app without an icon: the same name always looks the same. */
export function monogram(name: string): { letter: string; colour: number } {
  const letter = Array.from(name.replace(/^extern:/, '').trim())[0]?.toLocaleUpperCase() ?? '?';
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return { letter, colour: hash % MONOGRAM_COLOURS };
}

/** Whether a key press should focus the search box: `/` outside any text field. */
export function isSearchShortcut(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }, target: EventTarget | null): boolean {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return false;
  const element = target as { tagName?: string; isContentEditable?: boolean } | null;
  const tag = element?.tagName?.toLowerCase();
  return !(tag === 'input' || tag === 'textarea' || tag === 'select' || element?.isContentEditable);
}
