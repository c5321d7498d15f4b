/**
 * A database that refuses to record one type of event, for tests of "every change and its entry
 * are written in one transaction" (docs/event-log.md): with the entry refused, the change must not
 * be there either. A trigger on auth_log raises for that type, on SQLite and PostgreSQL alike.
 */
import type { EventType } from '@tools-portal/core';
import type { Knex } from 'knex';
import { testDialect } from './database.js';

const TRIGGER = 'refuse_event_for_test';

/** Makes every insert of an event of `type` fail until the answered function is called. */
export async function refuseEvents(db: Knex, type: EventType): Promise<() => Promise<void>> {
  // DDL takes no bound parameters; an event type is dotted lowercase words, safe as a literal.
  if (!/^[a-z_.]+$/.test(type)) throw new Error(`not an event type: ${type}`);
  const isType = `NEW.type = '${type}'`;
  if (testDialect() === 'postgres') {
    await db.raw(`CREATE FUNCTION ${TRIGGER}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'event refused by the test'; END $$ LANGUAGE plpgsql`);
    await db.raw(`CREATE TRIGGER ${TRIGGER} BEFORE INSERT ON auth_log FOR EACH ROW WHEN (${isType}) EXECUTE FUNCTION ${TRIGGER}()`);
    return async () => {
      await db.raw(`DROP TRIGGER ${TRIGGER} ON auth_log`);
      await db.raw(`DROP FUNCTION ${TRIGGER}()`);
    };
  }
  await db.raw(`CREATE TRIGGER ${TRIGGER} BEFORE INSERT ON auth_log WHEN ${isType} BEGIN SELECT RAISE(ABORT, 'event refused by the test'); END`);
  return async () => {
    await db.raw(`DROP TRIGGER ${TRIGGER}`);
  };
}
