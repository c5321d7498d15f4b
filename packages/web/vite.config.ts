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
    rolldownOptions: {
      // core's modules only declare things; marking them pure lets the bundle drop what the web
      // does not use (the zod schemas the server validates with).
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/core/src/') },
    },
  },
});
