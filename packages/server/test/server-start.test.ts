/** How the server process starts: `.env` in its working directory. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDialect } from './support/database.js';
import { spawnServer } from './support/processes.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/support.js';

describe.skipIf(testDialect() !== 'sqlite')('.env', () => {
  it('is loaded from the working directory at start; the environment wins over it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-dotenv-'));
    try {
      fs.writeFileSync(
        path.join(dir, '.env'),
        [
          '# the portal of this folder',
          'DATABASE_URL=sqlite:./from-dotenv.db',
          'PUBLIC_URL="http://portal.dotenv.test"',
          'LOG_LEVEL=silent',
          `ADMIN_EMAIL=${ADMIN_EMAIL}`,
          `ADMIN_PASSWORD=${ADMIN_PASSWORD}`,
          'WEB_ROOT=',
        ].join('\n'),
      );
      const server = await spawnServer({ LOG_LEVEL: 'info' }, 20_000, { cwd: dir });
      try {
        expect(server.output()).toContain('(public URL http://portal.dotenv.test)');
        expect(fs.existsSync(path.join(dir, 'from-dotenv.db'))).toBe(true);
        const login = await fetch(`${server.url}/api/auth/v1/validatepassword`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://portal.dotenv.test' },
          body: JSON.stringify({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD }),
        });
        expect(login.status).toBe(200);
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
