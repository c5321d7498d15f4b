/**
 * The admin console's screens (docs/web.md, Bundle), loaded on demand by the sidebar's groups: a
 * first visit carries none of them, and the console frame shows `Loading` while a part arrives.
 */
import { lazy, type ComponentType } from 'react';

/** A screen of a part: the part loads (once) when the screen first renders. */
function screen<Part, Name extends keyof Part>(load: () => Promise<Part>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const access = () => import('./access');
export const AccessRequests = screen(access, 'AccessRequests');
export const AppDetail = screen(access, 'AppDetail');
export const ManageApps = screen(access, 'ManageApps');
export const ReviewDetail = screen(access, 'ReviewDetail');
export const Reviews = screen(access, 'Reviews');

const directory = () => import('./directory');
export const ClientDetail = screen(directory, 'ClientDetail');
export const Clients = screen(directory, 'Clients');
export const Invites = screen(directory, 'Invites');
export const TeamDetail = screen(directory, 'TeamDetail');
export const Teams = screen(directory, 'Teams');
export const UserDetail = screen(directory, 'UserDetail');
export const Users = screen(directory, 'Users');

const security = () => import('./security');
export const AccessTokens = screen(security, 'AccessTokens');
export const Logs = screen(security, 'Logs');

const integrations = () => import('./integrations');
export const Docs = screen(integrations, 'Docs');
export const Webhooks = screen(integrations, 'Webhooks');
