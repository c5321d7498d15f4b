import fs from 'node:fs';
import { generateApiKey, PortalClient } from '@tools-portal/core';
import { createLogger, loadConfig, sqliteFile, startPortal } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, databaseContents, testDialect } from './support/database.js';
import { ADMIN_PASSWORD, failure, unique, useTestPortal } from './support/support.js';

const logLines: string[] = [];
const portal = useTestPortal({ LOG_LEVEL: 'debug', WEBHOOK_ALLOW_LOOPBACK: 'true' }, { logger: createLogger('debug', (line) => logLines.push(line)) });

describe('secrets at rest', () => {
  it('keeps no plaintext password, session token, API key or webhook secret in the database or the logs', async () => {
    const secrets: string[] = [ADMIN_PASSWORD, portal.admin.token!];
    for (let i = 0; i < 3; i++) {
      const password = `secret-password-${unique('pw')}`;
      const { api, token, email } = await portal.createUser({ password });
      const key = generateApiKey();
      await api.accessTokens.create(key);
      await portal.client(key).users.me();
      const wrong = `wrong-password-${unique('pw')}`;
      await failure(portal.login(email, wrong));
      secrets.push(password, token, key, wrong, await portal.login(email, password));
    }
    // Webhook secrets are sealed with SECRET_KEY (docs/webhooks.md): neither the current nor the previous one shows.
    const hook = await portal.admin.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['login.'] });
    const rotated = await portal.admin.webhooks.rotateSecret(hook.id);
    for (const { secret } of [hook, rotated]) secrets.push(secret, secret.slice('whsec_'.length));
    await portal.fetch('/api/auth/v1/client/', {
      method: 'POST',
      headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
      body: '{broken',
    });

    const file = sqliteFile(portal.deps.config.databaseUrl);
    const stored =
      testDialect() === 'postgres'
        ? await databaseContents(portal.deps.db)
        : ['', '-wal', '-shm']
            .filter((suffix) => fs.existsSync(file + suffix))
            .map((suffix) => fs.readFileSync(file + suffix).toString('latin1'))
            .join('\n');
    const logs = logLines.join('\n');
    expect(stored.length).toBeGreaterThan(5_000);
    for (const secret of secrets) {
      expect(stored.includes(secret), `database holds ${secret.slice(0, 12)}…`).toBe(false);
      expect(logs.includes(secret), `logs hold ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff, a referrer policy and frame denial on every answer', async () => {
    for (const path of ['/auth/', '/api/auth/v1/user/me', '/healthz', '/api/auth/v1/nothing']) {
      const response = await portal.fetch(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toMatch(/script-src 'self'(;|$)/);
      expect(csp, path).not.toContain('unsafe-inline');
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('sends HSTS and Secure cookies when PUBLIC_URL is https', async () => {
    const database = createTestDatabase();
    const config = loadConfig({
      PORT: '0',
      PUBLIC_URL: 'https://tools.example.com',
      DATABASE_URL: database.url,
      SCRYPT_LOGN: '10',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: 'tls@example.com',
      ADMIN_PASSWORD: 'tls admin password',
    });
    const https = await startPortal(config, { schema: database.schema }).catch(async (error: unknown) => {
      await database.drop();
      throw error;
    });
    try {
      const response = await fetch(`${https.url}/api/auth/v1/validatepassword`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Email: 'tls@example.com', Password: 'tls admin password' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(response.headers.get('set-cookie')).toMatch(/; Secure/);
      expect(await new PortalClient({ baseUrl: https.url }).health()).toEqual({ status: 'ok' });
    } finally {
      await https.close();
      await database.drop();
    }
  });
});
