import fs from 'node:fs';
import { apiRoutes } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';

const apiDoc = fs.readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

describe('docs/api.md', () => {
  it('documents every API route', () => {
    const missing = apiRoutes
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
      .filter((call) => !apiDoc.includes(`\`${call}\``));
    expect(missing).toEqual([]);
  });
});
