/**
 * The admin console's screens (docs/web.md, Bundle), loaded on demand by the sidebar's groups: a
 * first visit carries none of them, and the console frame shows `Loading` while a part arrives.
 * An admin's browser fetches them all once the first screen shows (`prefetchConsole`).
 */
import { lazy, type ComponentType } from 'react';

/** A part of the console that could not be loaded (the network, a newer build): the frame says so. */
export class PartLoadError extends Error {
  constructor(cause: unknown) {
    super('A part of the console could not be loaded', { cause });
    this.name = 'PartLoadError';
  }
}

/** A part's loader that loads it once; after a failure the next call tries again. */
function part<Part>(load: () => Promise<Part>): () => Promise<Part> {
  let loading: Promise<Part> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw new PartLoadError(error);
    }));
}

/** A screen of a part: the part loads (once) when the screen first renders. */
function screen<Part, Name extends keyof Part>(load: () => Promise<Part>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const access = part(() => import('./access'));
export const AccessRequests = screen(access, 'AccessRequests');
export const AppDetail = screen(access, 'AppDetail');
export const ManageApps = screen(access, 'ManageApps');
export const ReviewDetail = screen(access, 'ReviewDetail');
export const Reviews = screen(access, 'Reviews');

const directory = part(() => import('./directory'));
export const ClientDetail = screen(directory, 'ClientDetail');
export const Clients = screen(directory, 'Clients');
export const Invites = screen(directory, 'Invites');
export const TeamDetail = screen(directory, 'TeamDetail');
export const Teams = screen(directory, 'Teams');
export const UserDetail = screen(directory, 'UserDetail');
export const Users = screen(directory, 'Users');

const security = part(() => import('./security'));
export const AccessTokens = screen(security, 'AccessTokens');
export const Logs = screen(security, 'Logs');

const integrations = part(() => import('./integrations'));
export const Docs = screen(integrations, 'Docs');
export const Webhooks = screen(integrations, 'Webhooks');

/** Loads every part in the background, for admins, who are likely to open the console. */
export function prefetchConsole(): void {
  for (const load of [access, directory, security, integrations]) load().catch(() => undefined);
}
