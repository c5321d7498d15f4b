// Compiles core and server once before the server tests, for the tests that run the real
// server as a child process (crash safety, several instances); migrates the database template
// that the test portals copy (./database-template.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { provideDatabaseTemplate } from './database-template.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], { cwd: root, stdio: 'inherit' });
  return provideDatabaseTemplate(project);
}
