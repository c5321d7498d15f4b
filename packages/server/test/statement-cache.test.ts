import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cacheStatements } from '../src/db/statement-cache.js';

describe('cacheStatements', () => {
  it('reuses a compiled statement for the same SQL, keeps only the most recent ones, and still answers correctly', () => {
    const db = cacheStatements(new Database(':memory:'), 2);
    db.prepare('create table t (id integer primary key, name text)').run();
    const insert = db.prepare('insert into t (name) values (?)');
    expect(db.prepare('insert into t (name) values (?)')).toBe(insert);
    insert.run('a');
    db.prepare('insert into t (name) values (?)').run('b');
    expect(db.prepare('select name from t order by id').all()).toEqual([{ name: 'a' }, { name: 'b' }]);
    // Two other statements since: the insert has been evicted and is compiled anew.
    db.prepare('select count(*) as n from t').get();
    expect(db.prepare('insert into t (name) values (?)')).not.toBe(insert);
    expect(() => db.prepare('not sql')).toThrow();
    db.close();
  });
});
