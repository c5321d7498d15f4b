/**
 * The repository stands alone (issue 18): a clone anywhere, with nothing beside it, must build and
 * pass its tests. No file may read or cite documents outside it; product rules are cited from
 * docs/ (docs/product.md), test data lives under fixtures/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'test-results', 'data', 'coverage']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|json|md|css|html|txt|yml|yaml|sh|conf|toml)$|^(run|Dockerfile|Caddyfile|LICENSE)$/;

// Spelled in pieces so that this file does not match itself.
const FORBIDDEN = [
  ['SPEC', ' section'],
  ['SPEC', ' sections'],
  ['SPEC', '.md'],
  ['DESIGN', '.md'],
  ['STYLE', '.md'],
  ['../', 'shared'],
  ['shared', '/testdata'],
  ['/work', '/shared'],
].map((parts) => parts.join(''));

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* files(path.join(dir, entry.name));
    } else if (entry.isFile() && TEXT.test(entry.name) && entry.name !== 'package-lock.json') {
      yield path.join(dir, entry.name);
    }
  }
}

describe('the repository', () => {
  it('references nothing outside itself: no spec documents beside it, no shared folder', () => {
    const found: string[] = [];
    for (const file of files(root)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const needle of FORBIDDEN) if (text.includes(needle)) found.push(`${path.relative(root, file)}: ${needle}`);
    }
    expect(found).toEqual([]);
  });

  it('cites only sections docs/product.md has', () => {
    const headings = fs.readFileSync(path.join(root, 'docs/product.md'), 'utf8').match(/^## .+$/gm) ?? [];
    const numbered = new Set(headings.map((heading) => /^## (\d+)\./.exec(heading)?.[1]).filter(Boolean));
    const named = new Set(headings.map((heading) => heading.slice(3)));
    const missing: string[] = [];
    for (const file of files(root)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [, number] of text.matchAll(/product\.md §(\d+)/g)) if (!numbered.has(number)) missing.push(`${path.relative(root, file)}: §${number}`);
      // A named section is cited by its heading's words up to the first capitalised one after a
      // comma ("product.md, Teams, app roles and owners", "product.md, Sign-in, Account …").
      for (const [, name] of text.matchAll(/product\.md, ([A-Z][\w-]*(?:,? [a-z][\w-]*)*)/g))
        if (![...named].some((heading) => heading === name || heading.startsWith(name))) missing.push(`${path.relative(root, file)}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('carries the open-redirect corpus with its origin and licence', () => {
    const corpus = fs.readFileSync(path.join(root, 'fixtures/openredirects/openredirects.txt'), 'utf8').split('\n').filter(Boolean);
    expect(corpus.length).toBe(558);
    expect(fs.readFileSync(path.join(root, 'fixtures/openredirects/LICENSE'), 'utf8')).toMatch(/oauth2-proxy[\s\S]*Permission is hereby granted/);
  });
});
