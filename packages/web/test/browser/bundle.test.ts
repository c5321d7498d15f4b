// The built bundle (built by this project's global setup): the big common-password list stays on
// the server (issue 12, point 10), and the JavaScript keeps its budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WEB_DIST } from './support';

const BUDGET_GZIPPED = 150 * 1024;
const ON_DEMAND_GZIPPED = 30 * 1024;

describe('the web bundle', () => {
  const scripts = fs.readdirSync(path.join(WEB_DIST, 'assets')).filter((file) => file.endsWith('.js'));
  const code = scripts.map((file) => fs.readFileSync(path.join(WEB_DIST, 'assets', file), 'utf8')).join('\n');

  it('does not carry the common-password list or its rules', () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const word of ['trustno1', 'qwertyuiop', 'passwords-common', 'zxcvbn', 'Tools-Server pass', 'must not contain your email']) {
      expect(code.includes(word), word).toBe(false);
    }
    // The form's own checks are there, with the words of docs/product.md §5.
    expect(code).toContain("Your passwords don't match!");
    expect(code).toContain('Your password must be at least eight characters long!');
  });

  it('carries no zod: the web imports core by subpath, never the index with the schemas', () => {
    expect(code).not.toMatch(/ZodError|\$ZodType|zod\.dev/);
  });

  it('is written precompressed beside each file (brotli and gzip), for the server to serve from memory', () => {
    for (const file of scripts) {
      const body = fs.readFileSync(path.join(WEB_DIST, 'assets', file));
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(WEB_DIST, 'assets', `${file}.br`))).equals(body)).toBe(true);
      expect(zlib.gunzipSync(fs.readFileSync(path.join(WEB_DIST, 'assets', `${file}.gz`))).equals(body)).toBe(true);
    }
  });

  it('carries the catalogues precompiled, without the ICU message parser', () => {
    // The parser's error names, e.g. EXPECT_ARGUMENT_CLOSING_BRACE, come only with its code.
    expect(code).not.toMatch(/EXPECT_ARGUMENT_CLOSING_BRACE|INVALID_TAG/);
    expect(code).toContain('Sprache des Portals und Ihrer E-Mails');
  });

  // A first visit loads index.html's scripts and what they import statically, and so on; the rest
  // (the German words, the console's screens, the passkey and QR code libraries) comes only when a
  // reader or a screen asks for it (a dynamic `import()`, which this does not follow).
  const firstVisit = (() => {
    const html = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    const first = new Set([...html.matchAll(/<script[^>]* src="\/auth\/assets\/([^"]+\.js)"/g)].map((match) => match[1]));
    for (const file of first) {
      const source = fs.readFileSync(path.join(WEB_DIST, 'assets', file), 'utf8');
      for (const match of source.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) first.add(match[1]);
    }
    return first;
  })();
  const gzipped = (files: string[]) => zlib.gzipSync(files.map((file) => fs.readFileSync(path.join(WEB_DIST, 'assets', file), 'utf8')).join('\n')).length;

  it(`loads under ${BUDGET_GZIPPED / 1024} KB of JavaScript gzipped at a first visit, and each part loaded on demand under ${ON_DEMAND_GZIPPED / 1024} KB`, () => {
    expect(firstVisit.size).toBeGreaterThan(0);
    // index.html asks for the same files ahead (modulepreload): nothing it names is left out.
    const html = fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    for (const match of html.matchAll(/(?:src|href)="\/auth\/assets\/([^"]+\.js)"/g)) expect(firstVisit, match[1]).toContain(match[1]);
    expect(gzipped([...firstVisit])).toBeLessThan(BUDGET_GZIPPED);
    const onDemand = scripts.filter((name) => !firstVisit.has(name));
    expect(onDemand.length).toBeGreaterThan(0);
    for (const file of onDemand) expect(gzipped([file]), file).toBeLessThan(ON_DEMAND_GZIPPED);
  });

  it('leaves the German words to German readers: a first visit carries only the English catalogue', () => {
    const first = [...firstVisit].map((file) => fs.readFileSync(path.join(WEB_DIST, 'assets', file), 'utf8')).join('\n');
    expect(first).toContain('Language of the portal and of mail to you');
    expect(first).not.toContain('Sprache des Portals und Ihrer E-Mails');
  });
});
