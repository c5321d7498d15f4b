import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PortalClient } from '@tools-portal/core';
import { openDatabase } from '@tools-portal/server';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from './support/processes.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-crash-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const env = {
  DATABASE_URL: `sqlite:${path.join(dir, 'portal.db')}`,
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD: 'crash test password',
};

describe('crash safety', () => {
  it('keeps every acknowledged write through kill -9, with an intact database', async () => {
    const first = await spawnServer(env);
    const { accesstoken } = await new PortalClient({ baseUrl: first.url }).auth.login({ Email: env.ADMIN_EMAIL, Password: env.ADMIN_PASSWORD });
    const api = new PortalClient({ baseUrl: first.url, token: accesstoken });

    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (worker: number) => {
      for (let i = 0; i < 400 && !killed; i++) {
        const name = `crash-${worker}-${i}`;
        try {
          await api.clients.create(name);
          if (!killed) acknowledged.push(name);
        } catch {
          return;
        }
      }
    };
    const writers = Array.from({ length: 20 }, (_, worker) => writer(worker));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const beforeKill = acknowledged.length;
    killed = true;
    await first.kill();
    await Promise.all(writers);
    expect(beforeKill).toBeGreaterThan(20);

    const second = await spawnServer(env);
    try {
      const { accesstoken: token } = await new PortalClient({ baseUrl: second.url }).auth.login({ Email: env.ADMIN_EMAIL, Password: env.ADMIN_PASSWORD });
      const clients = await new PortalClient({ baseUrl: second.url, token }).clients.list();
      const names = new Set(clients.map((client) => client.name));
      expect(acknowledged.filter((name) => !names.has(name))).toEqual([]);
    } finally {
      await second.stop();
    }

    const db = openDatabase({ url: env.DATABASE_URL });
    try {
      expect(await db.raw('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      // Each client and its log row were written in one transaction: neither exists alone.
      const clients: { name: string }[] = await db('clients').where('name', 'like', 'crash-%').select('name');
      const events: { event: string }[] = await db('auth_log').where('event', 'like', 'created client crash-%').select('event');
      expect(events.map((row) => row.event.replace('created client ', '')).sort()).toEqual(clients.map((row) => row.name).sort());
    } finally {
      await db.destroy();
    }
  });
});
