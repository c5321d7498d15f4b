/** Who may do what (docs/product.md §6). Pure rules; the server enforces them. */

/** docs/product.md §9: the admin client's exact name. */
export const ADMIN_CLIENT_NAME = 'Admin';

export type Access = 'public' | 'user' | 'admin';

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
      return actor !== null;
    case 'admin':
      return isAdmin(actor);
  }
}

/** Admins may use every app; others only the apps granted to them. */
export function mayUseApp(actor: Actor, grantedAppIds: ReadonlySet<number>, appId: number): boolean {
  return isAdmin(actor) || grantedAppIds.has(appId);
}
