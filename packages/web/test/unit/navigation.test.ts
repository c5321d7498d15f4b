import { describe, expect, it } from 'vitest';
import type { MessageKey } from '../../src/i18n/en';
import { CONSOLE_NAV, consoleGroups } from '../../src/navigation';

describe('the admin console navigation as data', () => {
  it('groups the entries in the order their groups first appear', () => {
    expect(consoleGroups().map(({ group, entries }) => [group, entries.map((entry) => entry.label)])).toEqual([
      ['nav.group.access', ['nav.apps', 'nav.accessRequests', 'nav.reviews']],
      ['nav.group.directory', ['nav.users', 'nav.teams', 'nav.clients', 'nav.invites']],
      ['nav.group.security', ['nav.accessTokens', 'nav.logs']],
      ['nav.group.integrations', ['nav.webhooks']],
      ['nav.group.support', ['nav.help']],
    ]);
  });

  it('takes a new screen with one entry, in a group of its own or an existing one', () => {
    const joined = consoleGroups([
      ...CONSOLE_NAV,
      { group: 'nav.group.new' as MessageKey, to: '/new', label: 'nav.help' },
      { group: 'nav.group.directory', to: '/more', label: 'nav.teams' },
    ]);
    expect(joined.map(({ group }) => group)).toEqual([
      'nav.group.access',
      'nav.group.directory',
      'nav.group.security',
      'nav.group.integrations',
      'nav.group.support',
      'nav.group.new',
    ]);
    expect(joined[1].entries.map((entry) => entry.to)).toEqual(['/users', '/teams', '/clients', '/registrationtokens', '/more']);
  });
});
