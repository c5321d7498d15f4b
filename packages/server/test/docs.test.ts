import fs from 'node:fs';
import { apiRoutes, createLogger, migrateToLatest, openDatabase } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/database.js';

const read = (path: string) => fs.readFileSync(new URL(path, import.meta.url), 'utf8');
const apiDoc = read('../../../docs/api.md');
/** The documents of docs/, by file name. */
const docNames = fs.readdirSync(new URL('../../../docs/', import.meta.url)).filter((name) => name.endsWith('.md'));

describe('docs/api.md', () => {
  it('documents every API route', () => {
    const missing = apiRoutes.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`).filter((call) => !apiDoc.includes(`\`${call}\``));
    expect(missing).toEqual([]);
  });
});

/** The rows of the first Markdown table after `heading` (or of the document's first table): their cells. */
function tableRows(markdown: string, heading?: string): string[][] {
  const start = heading === undefined ? 0 : markdown.indexOf(`\n${heading}\n`);
  expect(start, `heading ${heading}`).toBeGreaterThanOrEqual(0);
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe('docs/configuration.md', () => {
  it('has one row for every variable config.ts reads, and none it does not read', () => {
    // config.ts reads each variable by name through its helpers read('X'), integer('X', …), boolean('X', …).
    const code = read('../src/config.ts');
    const variables = [...code.matchAll(/\b(?:read|integer|boolean)\('([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1]!);
    const documented = tableRows(read('../../../docs/configuration.md')).flatMap((cells) =>
      [...cells[0]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!),
    );
    expect(variables.length).toBeGreaterThan(30);
    expect([...new Set(documented)].sort()).toEqual([...new Set(variables)].sort());
    // One row each: two rows of one variable have said two different things of it.
    expect(documented.filter((name, index) => documented.indexOf(name) !== index)).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  it('the Data table names every table the migrations create, and no other', async () => {
    const database = createTestDatabase('sqlite');
    const db = openDatabase({ url: database.url, logger: createLogger('silent') });
    try {
      await migrateToLatest(db);
      const rows: { name: string }[] = await db('sqlite_master').where({ type: 'table' }).select('name');
      const tables = rows.map((row) => row.name).filter((name) => !name.startsWith('knex_') && !name.startsWith('sqlite_'));
      const documented = tableRows(read('../../../docs/architecture.md'), '## Data').flatMap((cells) =>
        [...cells[0]!.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!),
      );
      expect(tables.length).toBeGreaterThan(20);
      expect([...new Set(documented)].sort()).toEqual([...new Set(tables)].sort());
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});

describe('README.md', () => {
  it('indexes every document of docs/, and links only to documents that exist', () => {
    const linked = [...read('../../../README.md').matchAll(/\]\(docs\/([a-z0-9-]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    expect([...new Set(linked)].sort()).toEqual([...docNames].sort());
  });
});

describe('the documents', () => {
  const documents = new Map<string, string>([
    ['README.md', read('../../../README.md')],
    ...docNames.map((name): [string, string] => [`docs/${name}`, read(`../../../docs/${name}`)]),
  ]);
  /** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
  const slug = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
  const anchorsOf = (markdown: string) => new Set([...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));

  it('name no issue numbers: history is in git, dated runs in docs/performance.md', () => {
    const named = [...documents].flatMap(([name, text]) => [...text.matchAll(/\bissues? \d+/gi)].map((match) => `${name}: ${match[0]}`));
    expect(named).toEqual([]);
  });

  it('link to headings that exist', () => {
    const broken: string[] = [];
    for (const [name, text] of documents) {
      for (const [, target, anchor] of text.matchAll(/\]\(([a-z0-9/-]*\.md)?#([^)\s]+)\)/g)) {
        const file = target ? (name === 'README.md' ? target : `docs/${target}`) : name;
        const linked = documents.get(file);
        if (linked && !anchorsOf(linked).has(decodeURIComponent(anchor!))) broken.push(`${name} → ${target ?? ''}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
