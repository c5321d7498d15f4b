import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run the workspace packages from their TypeScript sources, no build needed.
    alias: {
      '@tools-portal/core': source('./packages/core/src/index.ts'),
      '@tools-portal/server': source('./packages/server/src/index.ts'),
    },
  },
  test: {
    projects: [
      { extends: true, test: { name: 'core', include: ['packages/core/test/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/test/**/*.test.ts'],
          globalSetup: ['packages/server/test/global-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'cli',
          include: ['packages/cli/test/**/*.test.ts'],
          globalSetup: ['packages/cli/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
        },
      },
    ],
  },
});
