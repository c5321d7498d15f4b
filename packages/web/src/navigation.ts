/**
 * The two areas' navigation (docs/web.md, Navigation) as data: a new screen joins with one entry.
 * The portal's entries are for everyone; the admin console's are grouped in its sidebar on wide
 * screens and in the menu on phones.
 */
import { paths } from './paths';

export interface NavEntry {
  to: string;
  label: string;
  /** Shows the count of open access requests, or of review items waiting for the user. */
  count?: 'openRequests' | 'waitingReviews';
  /** Only for the owners of an app (`owns` of GET /user/me). */
  ownersOnly?: boolean;
  /** Only for those who may review access: app owners and admins. */
  reviewersOnly?: boolean;
}

export interface ConsoleEntry extends NavEntry {
  /** The sidebar's group heading; groups show in the order of their first entry. */
  group: string;
}

/** The portal, beside the user menu (Account, Sign out). */
export const PORTAL_NAV: NavEntry[] = [
  { to: paths.appList, label: 'My apps' },
  { to: paths.requests, label: 'Request access' },
  { to: paths.ownedApps, label: 'Apps you own', ownersOnly: true },
  { to: paths.reviewsWaiting, label: 'Reviews waiting for you', reviewersOnly: true, count: 'waitingReviews' },
];

/** Non-admins keep their API keys under the user menu; admins find them in the console. */
export const USER_MENU_NAV: NavEntry[] = [{ to: paths.account, label: 'Account' }];
export const USER_MENU_NON_ADMIN_NAV: NavEntry[] = [{ to: paths.accessTokens, label: 'Access Tokens' }];

export const CONSOLE_NAV: ConsoleEntry[] = [
  { group: 'Access', to: paths.manageApps, label: 'Apps' },
  { group: 'Access', to: paths.accessRequests, label: 'Access requests', count: 'openRequests' },
  { group: 'Access', to: paths.reviews, label: 'Reviews' },
  { group: 'Directory', to: paths.users, label: 'Users' },
  { group: 'Directory', to: paths.teams, label: 'Teams' },
  { group: 'Directory', to: paths.clients, label: 'Clients' },
  { group: 'Directory', to: paths.invites, label: 'Invites' },
  { group: 'Security', to: paths.accessTokens, label: 'Access Tokens' },
  { group: 'Security', to: paths.logs, label: 'Event log' },
  { group: 'Integrations', to: paths.webhooks, label: 'Webhooks' },
  { group: 'Support', to: paths.docs, label: 'Help' },
];

/** The console's entries by group, in the order the groups first appear. */
export function consoleGroups(entries: readonly ConsoleEntry[] = CONSOLE_NAV): { group: string; entries: ConsoleEntry[] }[] {
  const groups = new Map<string, ConsoleEntry[]>();
  for (const entry of entries) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  return [...groups].map(([group, members]) => ({ group, entries: members }));
}
