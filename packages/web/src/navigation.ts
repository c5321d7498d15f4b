/**
 * The two areas' navigation (docs/web.md, Navigation) as data: a new screen joins with one entry.
 * The portal's entries are for everyone; the admin console's are grouped in its sidebar on wide
 * screens and in the menu on phones.
 */
import type { MessageKey } from './i18n/en';
import { paths } from './paths';

export interface NavEntry {
  to: string;
  /** The entry's words in the catalogues (src/i18n/). */
  label: MessageKey;
  /** Shows the count of open access requests, or of review items waiting for the user. */
  count?: 'openRequests' | 'waitingReviews';
  /** Only for the owners of an app (`owns` of GET /user/me). */
  ownersOnly?: boolean;
  /** Only for those who may review access: app owners and admins. */
  reviewersOnly?: boolean;
}

export interface ConsoleEntry extends NavEntry {
  /** The sidebar's group heading; groups show in the order of their first entry. */
  group: MessageKey;
}

/** The portal, beside the user menu (Account, Sign out). */
export const PORTAL_NAV: NavEntry[] = [
  { to: paths.appList, label: 'nav.myApps' },
  { to: paths.requests, label: 'nav.requestAccess' },
  { to: paths.ownedApps, label: 'nav.ownedApps', ownersOnly: true },
  { to: paths.reviewsWaiting, label: 'nav.reviewsWaiting', reviewersOnly: true, count: 'waitingReviews' },
];

/** Non-admins keep their API keys under the user menu; admins find them in the console. */
export const USER_MENU_NAV: NavEntry[] = [{ to: paths.account, label: 'nav.account' }];
export const USER_MENU_NON_ADMIN_NAV: NavEntry[] = [{ to: paths.accessTokens, label: 'nav.accessTokens' }];

export const CONSOLE_NAV: ConsoleEntry[] = [
  { group: 'nav.group.access', to: paths.manageApps, label: 'nav.apps' },
  { group: 'nav.group.access', to: paths.accessRequests, label: 'nav.accessRequests', count: 'openRequests' },
  { group: 'nav.group.access', to: paths.reviews, label: 'nav.reviews' },
  { group: 'nav.group.directory', to: paths.users, label: 'nav.users' },
  { group: 'nav.group.directory', to: paths.teams, label: 'nav.teams' },
  { group: 'nav.group.directory', to: paths.clients, label: 'nav.clients' },
  { group: 'nav.group.directory', to: paths.invites, label: 'nav.invites' },
  { group: 'nav.group.security', to: paths.accessTokens, label: 'nav.accessTokens' },
  { group: 'nav.group.security', to: paths.logs, label: 'nav.logs' },
  { group: 'nav.group.integrations', to: paths.webhooks, label: 'nav.webhooks' },
  { group: 'nav.group.support', to: paths.docs, label: 'nav.help' },
];

/** The console's entries by group, in the order the groups first appear. */
export function consoleGroups(entries: readonly ConsoleEntry[] = CONSOLE_NAV): { group: MessageKey; entries: ConsoleEntry[] }[] {
  const groups = new Map<MessageKey, ConsoleEntry[]>();
  for (const entry of entries) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  return [...groups].map(([group, members]) => ({ group, entries: members }));
}
