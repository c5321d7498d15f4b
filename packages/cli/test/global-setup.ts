/**
 * Builds toolsctl once for the CLI tests: they run the compiled binary, as users do. Migrates the
 * database template that their portals copy (server/test/support/database-template.ts).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { provideDatabaseTemplate } from '../../server/test/support/database-template.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/cli'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`building toolsctl failed:\n${result.stdout}${result.stderr}`);
  return provideDatabaseTemplate(project);
}
