import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, eventArea, eventTypes, isEventType } from '../src/events.js';

describe('the event type catalogue', () => {
  it('names every type area.what in lower case, and docs/event-log.md lists each one', () => {
    const doc = fs.readFileSync(new URL('../../../docs/event-log.md', import.meta.url), 'utf8');
    for (const type of eventTypes) {
      expect(type).toMatch(/^[a-z]+(\.[a-z_]+)+$/);
      expect(doc, type).toContain(`| \`${type}\` |`);
    }
    expect(eventTypes.length).toBe(Object.keys(EVENT_TYPES).length);
  });

  it('knows its own names and their areas', () => {
    expect(isEventType('login.success')).toBe(true);
    expect(isEventType('login.')).toBe(false);
    expect(isEventType('toString')).toBe(false);
    expect(eventArea('login.failure')).toBe('login');
    expect(eventArea('grant.add')).toBe('grant');
  });
});
