import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { usePostgresProject } from './packages/server/test/support/database.js';
import SlowestFirstSequencer from './scripts/slowest-first-sequencer.js';
import SlowestTestFiles from './scripts/slowest-test-files.js';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// The API suite runs a second time on PostgreSQL (TEST_DATABASE=postgres) when one answers.
const postgres = await usePostgresProject();
// The server, PostgreSQL, CLI and browser files run one after another in a worker without
// importing the server's modules again for each (about 2.5 s of a file's time): each file starts
// its own portals on their own databases and keeps no state in modules (the whole suite passes
// so); what a file changed through vitest is put back when it ends (file-isolation.ts).
const sharedModules = { isolate: false, setupFiles: ['packages/server/test/support/file-isolation.ts'] };

export default defineConfig({
  resolve: {
    // Tests run the workspace packages from their TypeScript sources, no build needed.
    // core's subpaths (`@tools-portal/core/errors`, …) are its source files of that name.
    alias: [
      { find: /^@tools-portal\/core\/(.+)$/, replacement: `${source('./packages/core/src/')}$1.ts` },
      { find: /^@tools-portal\/core$/, replacement: source('./packages/core/src/index.ts') },
      { find: /^@tools-portal\/server$/, replacement: source('./packages/server/src/index.ts') },
    ],
  },
  test: {
    reporters: ['default', new SlowestTestFiles()],
    // Most test files spend their time waiting (on servers, databases, proxies, a browser), so
    // one worker a core, at least two, instead of vitest's default of one less than the cores
    // (a single worker on a 2-core machine). `--maxWorkers` overrides it.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // The slowest files first, over all projects (./scripts/slowest-first-sequencer.ts).
    sequence: { sequencer: SlowestFirstSequencer },
    // What a test waits to see appears within this on a loaded 2-core machine; vitest's default
    // of one second is what a busy CI run takes for a screen to render.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      { extends: true, test: { name: 'core', include: ['packages/core/test/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/test/**/*.test.ts'],
          globalSetup: ['packages/server/test/support/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          ...sharedModules,
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'server-postgres',
                include: ['packages/server/test/**/*.test.ts'],
                globalSetup: ['packages/server/test/support/global-setup.ts'],
                testTimeout: 20_000,
                hookTimeout: 30_000,
                ...sharedModules,
                env: { TEST_DATABASE: 'postgres' },
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'cli',
          include: ['packages/cli/test/**/*.test.ts'],
          globalSetup: ['packages/cli/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          ...sharedModules,
        },
      },
      { extends: true, test: { name: 'web', include: ['packages/web/test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'web-browser',
          include: ['packages/web/test/browser/**/*.test.ts'],
          globalSetup: ['packages/web/test/browser/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          ...sharedModules,
        },
      },
    ],
  },
});
