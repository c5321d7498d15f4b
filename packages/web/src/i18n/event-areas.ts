/**
 * The event catalogue's areas (`login` of `login.failure`, @tools-portal/core/events) as the
 * console names its groups: the code itself in English, a word in German (docs/glossary.md).
 */
import type { MessageKey } from './en';
import type { Translate } from './use-t';

const AREA_WORDS: Record<string, MessageKey> = {
  login: 'events.area.login',
  session: 'events.area.session',
  google: 'events.area.google',
  oidc: 'events.area.oidc',
  device: 'events.area.device',
  register: 'events.area.register',
  mfa: 'events.area.mfa',
  passkey: 'events.area.passkey',
  recovery: 'events.area.recovery',
  password: 'events.area.password',
  account: 'events.area.account',
  admin: 'events.area.admin',
  client: 'events.area.client',
  user: 'events.area.user',
  app: 'events.area.app',
  grant: 'events.area.grant',
  setup: 'events.area.setup',
  team: 'events.area.team',
  review: 'events.area.review',
  invite: 'events.area.invite',
  apikey: 'events.area.apikey',
  access: 'events.area.access',
  webhook: 'events.area.webhook',
  verify: 'events.area.verify',
  mail: 'events.area.mail',
  log: 'events.area.log',
};

/** The group's name; an area added to the catalogue later shows as its code until it has words. */
export function areaName(area: string, t: Translate): string {
  const key = AREA_WORDS[area];
  return key ? t(key) : area;
}
