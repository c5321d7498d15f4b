/** Who may do what (docs/product.md §6). Pure rules; the server enforces them. */

/** docs/product.md §9: the admin client's exact name. */
export const ADMIN_CLIENT_NAME = 'Admin';

/**
 * `owner`: admins, and the owners of the app the call is about (docs/product.md, Teams, app roles
 * and owners); the guard lets any signed-in user through and the service checks the app.
 */
export type Access = 'public' | 'user' | 'owner' | 'admin';

export interface Actor {
  id: number;
  client: { name: string };
}

export function isAdmin(actor: Actor | null | undefined): boolean {
  return actor?.client.name === ADMIN_CLIENT_NAME;
}

/** Whether an actor (null: anonymous) meets an access level. */
export function allows(access: Access, actor: Actor | null): boolean {
  switch (access) {
    case 'public':
      return true;
    case 'user':
    case 'owner':
      return actor !== null;
    case 'admin':
      return isAdmin(actor);
  }
}

/** Admins may use every app; others only the apps granted to them. */
export function mayUseApp(actor: Actor, grantedAppIds: { has(appId: number): boolean }, appId: number): boolean {
  return isAdmin(actor) || grantedAppIds.has(appId);
}

/**
 * Admins manage every app; an owner (directly or through a team) only the apps they own: its
 * grants, its access requests. Nothing else: no other app, no user administration.
 */
export function mayManageApp(actor: Actor, ownedAppIds: ReadonlySet<number>, appId: number): boolean {
  return isAdmin(actor) || ownedAppIds.has(appId);
}
