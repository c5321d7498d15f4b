/**
 * The server, PostgreSQL, CLI and browser test files share workers without being imported apart
 * (`isolate: false`, vitest.config.ts): whatever a file changed globally through vitest (a fake
 * clock, a spy, a stubbed variable) is put back when the file ends, even when a test failed
 * before its own clean-up, so that it never reaches the next file.
 */
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
