import { describe, expect, it } from 'vitest';
import { CONSOLE_NAV, consoleGroups } from '../../src/navigation';

describe('the admin console navigation as data', () => {
  it('groups the entries in the order their groups first appear', () => {
    expect(consoleGroups().map(({ group, entries }) => [group, entries.map((entry) => entry.label)])).toEqual([
      ['Access', ['Apps', 'Access requests', 'Reviews']],
      ['Directory', ['Users', 'Teams', 'Clients', 'Invites']],
      ['Security', ['Access Tokens', 'Event log']],
      ['Integrations', ['Webhooks']],
      ['Support', ['Help']],
    ]);
  });

  it('takes a new screen with one entry, in a group of its own or an existing one', () => {
    const joined = consoleGroups([
      ...CONSOLE_NAV,
      { group: 'Reports', to: '/reports', label: 'Reports' },
      { group: 'Directory', to: '/groups', label: 'Groups' },
    ]);
    expect(joined.map(({ group }) => group)).toEqual(['Access', 'Directory', 'Security', 'Integrations', 'Support', 'Reports']);
    expect(joined[1].entries.map((entry) => entry.label)).toEqual(['Users', 'Teams', 'Clients', 'Invites', 'Groups']);
  });
});
