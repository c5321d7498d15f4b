import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The portal serves this build at /auth/ under a strict CSP (script-src/style-src 'self'): no
// inline scripts or styles, so CSS goes to its own file and no module-preload polyfill is inlined.
export default defineConfig({
  base: '/auth/',
  plugins: [react()],
  resolve: {
    alias: { '@tools-portal/core': fileURLToPath(new URL('../core/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
});
