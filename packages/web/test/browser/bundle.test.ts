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
    // The SPEC's own checks are there, with its words.
    expect(code).toContain("Your passwords don't match!");
    expect(code).toContain('Your password must be at least eight characters long!');
  });

  it(`stays under ${BUDGET_GZIPPED / 1024} KB of JavaScript gzipped`, () => {
    expect(zlib.gzipSync(code).length).toBeLessThan(BUDGET_GZIPPED);
  });
});
