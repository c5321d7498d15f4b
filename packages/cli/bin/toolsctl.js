#!/usr/bin/env node
// The installed `toolsctl`: runs the compiled CLI (built at `npm install` by the root `prepare`).
import('../dist/main.js').catch((error) => {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/main.js')) {
    console.error('toolsctl is not built yet: run `npm run build` in the repository root.');
    process.exit(5);
  }
  throw error;
});
