// The built bundle (built by this project's global setup): the big common-password list stays on
// the server (issue 12, point 10), and the JavaScript keeps its budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WEB_DIST } from './support';

const BUDGET_GZIPPED = 150 * 1024;

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

  it(`stays under ${BUDGET_GZIPPED / 1024} KB of JavaScript gzipped`, () => {
    expect(zlib.gzipSync(code).length).toBeLessThan(BUDGET_GZIPPED);
  });
});
