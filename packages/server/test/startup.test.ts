import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PortalClient } from '@tools-portal/core';
import { ConfigError, loadConfig, migrateDown, migrateToLatest, openDatabase, sqliteSettings, startPortal } from '@tools-portal/server';
import { afterAll, describe, expect, it } from 'vitest';

const dirs: string[] = [];
const tempDb = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-startup-'));
  dirs.push(dir);
  return `sqlite:${path.join(dir, 'nested', 'portal.db')}`;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      databaseUrl: 'sqlite:./data/portal.db',
      adminEmail: 'admin@localhost',
      sessionTtlDays: 365,
      sessionIdleDays: 30,
      scryptLogN: 17,
      google: undefined,
      secureCookies: false,
    });
  });

  it('reports every bad value at once', () => {
    try {
      loadConfig({ PORT: 'eighty', PUBLIC_URL: 'ftp://x', DATABASE_URL: 'mysql://x', GOOGLE_CLIENT_ID: 'id', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'PUBLIC_URL', 'DATABASE_URL', 'GOOGLE_CLIENT_SECRET', 'LOG_LEVEL']) expect(problems).toContain(name);
    }
  });

  it('secures cookies when the public URL is https', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://tools.example.com/' })).toMatchObject({ secureCookies: true, publicOrigin: 'https://tools.example.com' });
  });
});

describe('first start', () => {
  it('creates the Admin client and an invite for the first admin, printing its link once', async () => {
    const links: string[] = [];
    const config = loadConfig({ PORT: '0', DATABASE_URL: tempDb(), SCRYPT_LOGN: '10', LOG_LEVEL: 'silent', ADMIN_EMAIL: 'Boss@Example.com' });
    const first = await startPortal(config, { publicUrlFromAddress: true, onInviteLink: (link) => links.push(link) });
    try {
      expect(links).toHaveLength(1);
      expect(links[0]).toMatch(new RegExp(`^${first.url}/auth/register\\?token=[A-Za-z0-9_-]{43}$`));
      const token = new URL(links[0]).searchParams.get('token')!;
      const client = new PortalClient({ baseUrl: first.url });
      const { accesstoken } = await client.auth.register({ Token: token, Password: 'first admin password' });
      expect(await new PortalClient({ baseUrl: first.url, token: accesstoken }).users.me()).toMatchObject({
        email: 'boss@example.com',
        client: { name: 'Admin' },
        admin: true,
      });
    } finally {
      await first.close();
    }
    // A second start on the same database changes nothing and prints nothing.
    const second = await startPortal(config, { publicUrlFromAddress: true, onInviteLink: (link) => links.push(link) });
    await second.close();
    expect(links).toHaveLength(1);
    expect(second.bootstrap).toEqual({ created: false });
  });

  it('creates the first admin with ADMIN_PASSWORD when given', async () => {
    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: tempDb(),
      SCRYPT_LOGN: '10',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: 'root@example.com',
      ADMIN_PASSWORD: 'configured password',
    });
    const portal = await startPortal(config, { publicUrlFromAddress: true, onInviteLink: () => expect.unreachable() });
    try {
      const { accesstoken } = await new PortalClient({ baseUrl: portal.url }).auth.login({ Email: 'root@example.com', Password: 'configured password' });
      expect(accesstoken).toBeTruthy();
    } finally {
      await portal.close();
    }
  });

  it('refuses an ADMIN_PASSWORD that breaks the password rules, creating nothing, and starts once it is fixed', async () => {
    const database = tempDb();
    const env = { PORT: '0', DATABASE_URL: database, SCRYPT_LOGN: '10', LOG_LEVEL: 'silent', ADMIN_EMAIL: 'keeper@example.com' };
    for (const weak of ['short', 'keeper-of-keys-2026', 'password123!']) {
      await expect(startPortal(loadConfig({ ...env, ADMIN_PASSWORD: weak }), { publicUrlFromAddress: true })).rejects.toThrow(/ADMIN_PASSWORD is refused/);
    }
    const portal = await startPortal(loadConfig({ ...env, ADMIN_PASSWORD: 'a calm harbour at dusk' }), { publicUrlFromAddress: true });
    try {
      expect(portal.bootstrap).toEqual({ created: true, adminEmail: 'keeper@example.com' });
      const { accesstoken } = await new PortalClient({ baseUrl: portal.url }).auth.login({ Email: 'keeper@example.com', Password: 'a calm harbour at dusk' });
      expect(accesstoken).toBeTruthy();
    } finally {
      await portal.close();
    }
  });
});

describe('database', () => {
  it('runs SQLite with WAL, a busy timeout, NORMAL sync and foreign keys', async () => {
    const db = openDatabase({ url: tempDb() });
    try {
      expect(await sqliteSettings(db)).toEqual({ journal_mode: 'wal', busy_timeout: 5000, synchronous: 1, foreign_keys: 1 });
    } finally {
      await db.destroy();
    }
  });

  it('migrates up and down', async () => {
    const db = openDatabase({ url: tempDb() });
    try {
      await migrateToLatest(db);
      expect(await db.schema.hasTable('users')).toBe(true);
      await migrateDown(db);
      expect(await db.schema.hasTable('users')).toBe(false);
      await migrateToLatest(db);
      expect(await db.schema.hasTable('auth_log')).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});

describe('origins', () => {
  it('accepts both loopback names with the default PUBLIC_URL, only PUBLIC_URL when set', () => {
    expect(loadConfig({ PORT: '8080' }).trustedOrigins).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']);
    expect(loadConfig({ PUBLIC_URL: 'https://tools.example.com' }).trustedOrigins).toEqual(['https://tools.example.com']);
  });
});
