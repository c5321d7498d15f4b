/** The link the New Invite flow shows (SPEC section 2): `{host}/{app}/register?token={token}`. */
import type { App } from '@tools-portal/core/entities';
import { registrationLink as linkFor } from '@tools-portal/core/invite-links';

/** The first chosen app names the link; with none the portal itself (`auth`) does. */
export function registrationLink(origin: string, apps: readonly Pick<App, 'id' | 'name'>[], chosenIds: readonly number[], token: string): string {
  const first = chosenIds.length > 0 ? apps.find((app) => app.id === chosenIds[0]) : undefined;
  return linkFor(origin, token, first?.name);
}
