/** The link the New Invite flow shows (SPEC section 2): `{host}/{app}/register?token={token}`. */
import { registrationLink as linkFor, type App } from '@tools-portal/core';

/** The first chosen app names the link; with none the portal itself (`auth`) does. */
export function registrationLink(origin: string, apps: readonly Pick<App, 'id' | 'name'>[], chosenIds: readonly number[], token: string): string {
  const first = chosenIds.length > 0 ? apps.find((app) => app.id === chosenIds[0]) : undefined;
  return linkFor(origin, token, first?.name);
}
