import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeRequestPath, parseOriginalUrl } from '../src/index.js';

const normal = (raw: string) => {
  const result = normalizeRequestPath(raw);
  if (!result.ok) throw new Error(`${raw} was refused: ${result.reason}`);
  return result.path;
};
const refusal = (raw: string) => {
  const result = normalizeRequestPath(raw);
  return result.ok ? `accepted as ${result.path}` : result.reason;
};

// Every case spelling of the hex digits in `%xy` sequences: `%2f` → `%2f`, `%2F`.
function caseVariants(raw: string): string[] {
  const positions = [...raw.matchAll(/%[0-9a-fA-F]{2}/g)].flatMap((match) => [match.index! + 1, match.index! + 2]).filter((i) => /[a-fA-F]/.test(raw[i]));
  const variants = new Set<string>();
  for (let mask = 0; mask < 1 << Math.min(positions.length, 8); mask++) {
    const chars = [...raw];
    positions.forEach((position, bit) => {
      chars[position] = mask & (1 << bit) ? chars[position].toUpperCase() : chars[position].toLowerCase();
    });
    variants.add(chars.join(''));
  }
  return [...variants];
}

describe('normalizeRequestPath: accepted, in one canonical spelling', () => {
  it.each([
    ['/', '/'],
    ['/grafana', '/grafana'],
    ['/grafana/', '/grafana/'],
    ['/grafana/d/abc-1_x.y~z', '/grafana/d/abc-1_x.y~z'],
    ["/a/!$&'()*+,=:@", "/a/!$&'()*+,=:@"],
    ['/.well-known/openid-configuration', '/.well-known/openid-configuration'],
    ['/a/...', '/a/...'],
    ['/a/..b/.c/d.', '/a/..b/.c/d.'],
    ['/..x', '/..x'],
    ['/a..b/c..', '/a..b/c..'],
    ['/x/.well-known/', '/x/.well-known/'],
    ['/a/%2e%2ex/%2e%2E%2e', '/a/..x/...'],
    ['/a/.%2ewell/%2ex', '/a/..well/.x'],
  ])('%s stays %s', (raw, path) => {
    expect(normal(raw)).toBe(path);
  });

  it.each([
    ['/%67rafana/', '/grafana/'],
    ['/gr%61fana/x', '/grafana/x'],
    ['/GR%41FANA', '/GRAFANA'],
    ['/%7euser', '/~user'],
    ['/a%2Db%5Fc%2ed', '/a-b_c.d'],
    ['/%30%39', '/09'],
  ])('decodes escapes of unreserved characters: %s is %s', (raw, path) => {
    expect(normal(raw)).toBe(path);
  });

  it.each([
    ['/caf%c3%a9', '/caf%C3%A9'],
    ['/%e2%82%ac', '/%E2%82%AC'],
    ['/%f0%9f%98%80', '/%F0%9F%98%80'],
    ['/%ef%bf%bd', '/%EF%BF%BD'],
    ['/%f4%8f%bf%bf', '/%F4%8F%BF%BF'],
    ['/a%20b', '/a%20b'],
    ['/a%3fb%23c%26d', '/a%3Fb%23c%26d'],
    ['/a%3a%40', '/a%3A%40'],
    ['/100%25', '/100%25'],
    ['/100%25zz', '/100%25zz'],
    ['/a{b}|c^d`e"f<g>[h]', '/a%7Bb%7D%7Cc%5Ed%60e%22f%3Cg%3E%5Bh%5D'],
  ])('keeps other escapes, in upper case: %s is %s', (raw, path) => {
    expect(normal(raw)).toBe(path);
  });

  it.each([
    ['//grafana/x', '/grafana/x'],
    ['/grafana//x', '/grafana/x'],
    ['/grafana///x//', '/grafana/x/'],
    ['//', '/'],
  ])('merges repeated slashes as nginx and Caddy do: %s is %s', (raw, path) => {
    expect(normal(raw)).toBe(path);
  });
});

describe('normalizeRequestPath: refused', () => {
  const refusedAs = (reason: string, paths: string[]) => {
    for (const raw of paths) {
      for (const variant of caseVariants(raw)) expect([variant, refusal(variant)]).toEqual([variant, reason]);
    }
  };

  it('an encoded slash, in any case and position', () => {
    refusedAs('an encoded slash', [
      '/grafana/..%2fsecret/x',
      '/grafana%2fx',
      '/%2f',
      '/%2fgrafana',
      '/grafana/%2e%2e%2fsecret',
      '/a%2f..%2fb',
      '/secret%2f../grafana/',
    ]);
  });

  it('an encoded backslash', () => {
    refusedAs('an encoded backslash', ['/grafana/..%5csecret', '/%5c', '/a%5c%5cb']);
  });

  it('a backslash', () => {
    refusedAs('a backslash', ['/grafana/..\\secret', '/\\', '/a\\b', '/grafana\\..\\secret']);
  });

  it('double encoding of anything', () => {
    refusedAs('a double-encoded escape', [
      '/grafana/..%252fsecret',
      '/grafana/..%255csecret',
      '/grafana/%252e%252e/secret',
      '/a%2500',
      '/a%253b',
      '/a%2525',
      '/a%25252f',
      '/%2567rafana',
      '/a%25%32%66',
      '/a%25%32f',
      '/a%252%66',
    ]);
  });

  it('a path parameter, raw or encoded (Tomcat reads `..;` as `..`)', () => {
    refusedAs('a path parameter (;)', ['/grafana/..;/secret', '/grafana;/../secret', '/a;b', '/a;jsessionid=1', '/;', '/a/.;/b']);
    refusedAs('an encoded path parameter (;)', ['/grafana/..%3b/secret', '/a%3bb']);
  });

  it('NUL and every other control character, raw or encoded', () => {
    const controls = [...Array(32).keys(), 0x7f];
    for (const code of controls) {
      expect(refusal(`/a${String.fromCharCode(code)}b`)).toBe('a character that is not allowed in a path');
      refusedAs('an encoded control character', [`/a%${code.toString(16).padStart(2, '0')}b`]);
    }
    refusedAs('an encoded control character', ['/grafana/..%00/secret', '/a%00', '/a%0d%0aSet-Cookie:x']);
  });

  it('invalid escapes', () => {
    refusedAs('an invalid percent-escape', ['/%', '/a%', '/a%2', '/a%zz', '/a%g0', '/a%0g', '/%u002e%u002e/', '/%%32%66', '/a%-1', '/a% 2f', '/a%+2f']);
  });

  it('overlong and invalid UTF-8', () => {
    refusedAs('an overlong or invalid UTF-8 escape', [
      '/grafana/%c0%ae%c0%ae/secret',
      '/%c0%af',
      '/%c1%9c',
      '/%c0%80',
      '/%e0%80%ae',
      '/%e0%80%af',
      '/%f0%80%80%ae',
      '/%f0%80%80%af',
      '/%f8%80%80%80%ae',
      '/%fc%80%80%80%80%ae',
      '/%80',
      '/%bf',
      '/%c3',
      '/%c3%28',
      '/%c3%c3',
      '/%e2%82',
      '/%e2%82x',
      '/%e2%28%a1',
      '/%ed%a0%80',
      '/%ed%bf%bf',
      '/%f4%90%80%80',
      '/%f5%80%80%80',
      '/%fe',
      '/%ff',
      '/caf%e9',
      '/%c3%a9%a9',
      '/%c3%2e',
    ]);
  });

  it('a dot segment, raw or encoded, in any case and position (a proxy that normalizes never sends one)', () => {
    refusedAs('a dot segment (. or ..)', [
      '/grafana/./x',
      '/grafana/../secret/x',
      '/grafana/x/../../secret',
      '/a/b/..',
      '/a/b/../',
      '/a/.',
      '/.',
      '/./a',
      '/a/./././b',
      '/..',
      '/../',
      '/../secret',
      '/%2e%2e/x',
      '/./../x',
      '//..',
      '/grafana/%2e%2e/secret',
      '/grafana/%2e./secret',
      '/grafana/.%2e/secret',
      '/grafana/%2E./secret',
      '/grafana/%2e/x',
      '/grafana/%2e%2e',
      '/grafana/x/%2e%2e/%2E%2E/secret',
      '/grafana//../secret',
      '/a/.//b',
      '/a//./b',
      '//a/../b',
      '/a/%2e%2e//b',
      '/grafana/%61/../secret',
      '/%2e',
    ]);
  });

  it('a fragment, a query, whitespace and characters outside ASCII', () => {
    refusedAs('a fragment (#)', ['/grafana/x#/../../secret', '/#', '/a#b']);
    refusedAs('a query inside the path', ['/a?b']);
    for (const raw of ['/a b', '/a\u00a0b', '/café', '/a\u2028b', '/a\u200bb', '/\ud800', '/a\u0130', '/\uff0e\uff0e/x']) {
      expect(refusal(raw)).toBe('a character that is not allowed in a path');
    }
  });

  it('what is not a path', () => {
    for (const raw of ['', 'a', '*', 'grafana/', 'http://x/', '.', '..', '%2f']) expect(refusal(raw)).toBe('a path that does not start with /');
  });
});

// Two readings of the same raw path: a proxy's (decode every escape, merge slashes, resolve dot
// segments; nginx, Go's path.Clean behind Caddy) and the same after one more decoding (an app that
// decodes twice). Whatever the normalizer accepts, both read as the normalized path does, and it
// holds no dot segment in any spelling: a proxy that routes on the raw path (HAProxy) reads it so too.
function decodeAll(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
function proxyReading(path: string): string | undefined {
  const out: string[] = [];
  const parts = path.split('/').slice(1);
  parts.forEach((part) => {
    if (part === '' || part === '.') return;
    if (part === '..') {
      if (out.length === 0) throw new Error('above root');
      out.pop();
      return;
    }
    out.push(part);
  });
  const trailing = parts.length > 0 && ['', '.', '..'].includes(parts[parts.length - 1]) && out.length > 0;
  return `/${out.join('/')}${trailing ? '/' : ''}`;
}
// (Not Node's WHATWG URL parser as a third reader: Node 20's leaves `/a/.b/..` unresolved.)

const EVERY_TOKEN = [
  '/',
  '/',
  '.',
  '..',
  'a',
  'B',
  '%2e',
  '%2E',
  '%2f',
  '%5c',
  '%25',
  '%32',
  '%66',
  '%41',
  '%c0',
  '%ae',
  '%c3',
  '%a9',
  '%',
  ';',
  '\\',
  '#',
  '2f',
  '~',
  '%7e',
  '%3b',
  '%00',
  '{',
  ' ',
];
// Mostly accepted, so that names with dots, merged slashes and decoded escapes meet often.
const PASSING_TOKENS = ['/', '/', '/', '.', '..', '/..', '/.', 'a', 'B', '%2e', '%2E', '%41', '%c3%a9', '%25', '{', '~', '%7e', '%3F'];

describe('normalizeRequestPath: properties', () => {
  it.each([
    ['every kind of token', EVERY_TOKEN],
    ['tokens that mostly pass', PASSING_TOKENS],
  ])(
    'accepted paths (of %s) read the same to a proxy, to an app that decodes twice, and once normalized again',
    (_, alphabet) => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }), (tokens) => {
          const raw = `/${tokens.join('')}`;
          const result = normalizeRequestPath(raw);
          if (!result.ok) return;
          const { path } = result;
          expect(path.startsWith('/')).toBe(true);
          expect(path).not.toMatch(
            /\/\/|\/\.\.?(\/|$)|%(2[dDeEfF]|5[cCfF]|7[eE]|25[0-9A-Fa-f]{2}|3[bB]|[0-1][0-9A-Fa-f]|7[fF]|[46][1-9A-Fa-f]|[57][0-9aA]|3[0-9])|[\\;#\s]/,
          );
          expect(normalizeRequestPath(path)).toEqual({ ok: true, path });
          const once = decodeAll(raw);
          expect(once.split('/').filter((segment) => segment === '.' || segment === '..')).toEqual([]);
          expect(proxyReading(once)).toBe(decodeAll(path));
          expect(proxyReading(decodeAll(once))).toBe(decodeAll(path));
        }),
        { numRuns: 4_000 },
      );
    },
    60_000,
  );

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (tail) => {
        const result = normalizeRequestPath(`/${tail}`);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 1_000 },
    );
  }, 60_000);
});

describe('parseOriginalUrl', () => {
  it('splits origin, normalized path and query', () => {
    expect(parseOriginalUrl('https://tools.example.com/.well-known/x/..y?a=/../b')).toEqual({
      kind: 'url',
      origin: 'https://tools.example.com',
      path: '/.well-known/x/..y',
      search: '?a=/../b',
    });
    expect(parseOriginalUrl('https://tools.example.com/grafana/d/1?orgId=1&x=/../y')).toEqual({
      kind: 'url',
      origin: 'https://tools.example.com',
      path: '/grafana/d/1',
      search: '?orgId=1&x=/../y',
    });
    expect(parseOriginalUrl('HTTPS://Tools.Example.COM:443/%67rafana/wiki')).toEqual({
      kind: 'url',
      origin: 'https://tools.example.com',
      path: '/grafana/wiki',
      search: '',
    });
    expect(parseOriginalUrl('http://127.0.0.1:8080')).toEqual({ kind: 'url', origin: 'http://127.0.0.1:8080', path: '/', search: '' });
    expect(parseOriginalUrl('http://[::1]:3000/?')).toEqual({ kind: 'url', origin: 'http://[::1]:3000', path: '/', search: '?' });
    expect(parseOriginalUrl('https://tools.example.com?x=1')).toEqual({ kind: 'url', origin: 'https://tools.example.com', path: '/', search: '?x=1' });
  });

  it('refuses an ambiguous path, saying why', () => {
    expect(parseOriginalUrl('https://tools.example.com/grafana/..%2fsecret/data')).toEqual({ kind: 'ambiguous', reason: 'an encoded slash' });
    expect(parseOriginalUrl('https://tools.example.com/grafana/..;/secret')).toEqual({ kind: 'ambiguous', reason: 'a path parameter (;)' });
    expect(parseOriginalUrl('https://tools.example.com/grafana/x#/../../secret')).toEqual({ kind: 'ambiguous', reason: 'a fragment (#)' });
    expect(parseOriginalUrl('https://tools.example.com/../secret')).toEqual({ kind: 'ambiguous', reason: 'a dot segment (. or ..)' });
    expect(parseOriginalUrl('https://tools.example.com/grafana/%2E./secret')).toEqual({ kind: 'ambiguous', reason: 'a dot segment (. or ..)' });
  });

  it('has nothing to judge by for what is not an absolute http(s) URL with a plain host', () => {
    for (const url of [
      '',
      'not a url',
      '/grafana/',
      '//tools.example.com/',
      'javascript:alert(1)',
      'ftp://tools.example.com/',
      'https:/tools.example.com/',
      'https:tools.example.com/',
      'https://user:pass@tools.example.com/',
      'https://tools.example.com@evil.example.net/',
      'https://tools.example.com\\@evil.example.net/',
      'https://evil.example.net\\tools.example.com/',
      'https://tools.example.com:99999/',
      'https://tools.example.com:/',
      'https://tools example.com/',
      'https:// tools.example.com/',
      `https://tools.example.com/${'a'.repeat(2000)}`,
    ]) {
      expect([url, parseOriginalUrl(url)]).toEqual([url, { kind: 'invalid' }]);
    }
  });
});
