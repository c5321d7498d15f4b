/**
 * One sign-in pipeline (docs/architecture.md, Sign-in): services/sign-in/sign-in.ts is the only module
 * that creates sessions and the only writer of sign-in events; every way in goes through it and
 * leaves exactly one session and one sign-in event.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_EVENTS } from '../src/services/sign-in/sign-in.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, useTestPortal } from './support/support.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const PIPELINE = path.join('services', 'sign-in', 'sign-in.ts');

function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the sign-in pipeline', () => {
  it('is the only module that inserts sessions or writes a sign-in event', () => {
    const offenders: string[] = [];
    for (const file of sources()) {
      const relative = path.relative(SRC, file);
      // Migrations name old events to give them a type (20261123-350); they write none.
      if (relative === PIPELINE || relative.startsWith(`db${path.sep}migrations${path.sep}`)) continue;
      const text = fs.readFileSync(file, 'utf8');
      if (/\(\s*'sessions'\s*\)\s*\.insert/.test(text)) offenders.push(`${relative}: inserts sessions`);
      for (const event of Object.values(SIGN_IN_EVENTS)) if (text.includes(`'${event}'`)) offenders.push(`${relative}: writes "${event}"`);
      if (/logEvent\([^)]*'(login with|registered )/.test(text)) offenders.push(`${relative}: logs a sign-in`);
    }
    expect(offenders).toEqual([]);
  });

  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000' });

  it('leaves one session and one event per sign-in: password login and invite registration', async () => {
    const db = portal.deps.db;
    const count = async (table: string) => Number(((await db(table).count({ n: '*' }).first()) as { n: number }).n);
    const sessions = await count('sessions');
    const events = await count('auth_log');
    await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(await count('sessions')).toBe(sessions + 1);
    expect(await count('auth_log')).toBe(events + 1);
    const user = await portal.createUser(); // a client and an invite (two admin events), then the registration
    expect(await count('sessions')).toBe(sessions + 2);
    expect(await count('auth_log')).toBe(events + 4);
    const [last] = await db('auth_log').orderBy('id', 'desc').limit(1).select('user', 'event');
    expect(last).toEqual({ user: user.email, event: 'registered with password' });
  });
});
