import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { TYPE, parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { de } from './src/i18n/de';
import { en } from './src/i18n/en';

const COMPRESSIBLE = /\.(html|js|css|json|svg|map|txt|ico)$/;

/**
 * Writes FILE.br and FILE.gz beside every compressible file of the build, at the best settings:
 * the server reads them at start and answers by Accept-Encoding (packages/server/src/static-files.ts).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'tools-portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
      for (const file of walk(outDir).filter((name) => COMPRESSIBLE.test(name))) {
        const body = fs.readFileSync(file);
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

const CATALOGUES: Record<string, Record<string, string>> = { en, de };

/**
 * The catalogues (src/i18n/en.ts, de.ts) go into the build already parsed: each message as the
 * AST react-intl formats, so the bundle needs no ICU parser (aliased to its no-parser build below).
 */
function precompiledCatalogues(): Plugin {
  return {
    name: 'tools-portal-precompiled-catalogues',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      const language = /[\\/]src[\\/]i18n[\\/](en|de)\.ts$/.exec(id)?.[1];
      if (!language) return null;
      // Plain text travels as a string and becomes its one-literal AST on load: the most compact form.
      const compiled = Object.fromEntries(
        Object.entries(CATALOGUES[language]).map(([key, message]) => {
          const ast = parse(message);
          return [key, ast.length === 1 && ast[0].type === TYPE.literal ? ast[0].value : ast];
        }),
      );
      return [
        `const compiled = JSON.parse(${JSON.stringify(JSON.stringify(compiled))});`,
        `export const ${language} = Object.fromEntries(Object.entries(compiled).map(([key, message]) => [key, typeof message === 'string' ? [{ type: ${TYPE.literal}, value: message }] : message]));`,
      ].join('\n');
    },
  };
}

// The portal serves this build at /auth/ under a strict CSP (script-src/style-src 'self'): no
// inline scripts or styles, so CSS goes to its own file and no module-preload polyfill is inlined.
export default defineConfig(({ command }) => ({
  base: '/auth/',
  plugins: [react(), precompiledCatalogues(), precompress()],
  resolve: {
    // The web imports core's modules by subpath (`@tools-portal/core/client`, …), never the index
    // that also carries the zod schemas, so the bundle holds no zod.
    alias: [
      { find: /^@tools-portal\/core\/(.+)$/, replacement: `${fileURLToPath(new URL('../core/src/', import.meta.url))}$1.ts` },
      { find: /^@tools-portal\/core$/, replacement: fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
      // Every message is precompiled (precompiledCatalogues): the build carries no ICU parser.
      ...(command === 'build' ? [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }] : []),
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
}));
