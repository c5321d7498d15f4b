/** Running the compiled server as a child process, for tests that kill or restart it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PortalClient } from '@tools-portal/core';
import { afterAll, beforeAll } from 'vitest';
import { TEST_SECRET_KEY, type TestDatabase } from './database.js';
import { createPortalDatabase } from './support.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
  /** SIGTERM, and wait for a clean exit. */
  stop(): Promise<number | null>;
  /** Moves the process's clock forward by the step of its movableClock (started with its node options). */
  moveClock(): void;
}

/**
 * Node options for a server process whose clock (Date.now) a test moves forward, a step of
 * `stepMs` at each moveClock(): for what the product waits minutes for (a dead process's lease),
 * instead of the test waiting.
 */
export const movableClock = (stepMs: number): string[] => [
  '--import',
  `data:text/javascript,const real=Date.now;let ahead=0;Date.now=()=>real()+ahead;process.on('SIGUSR2',()=>{ahead+=${stepMs};});`,
];

/**
 * Starts `node dist/main.js` with `env` over a few defaults; answers once it listens, else kills it
 * and fails. (A start takes well under a second on a quiet machine and 20 s or more on a busy one.)
 */
export async function spawnServer(
  env: Record<string, string>,
  startTimeoutMs = 60_000,
  options: { cwd?: string; nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SCRYPT_LOGN: '10', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
    moveClock() {
      child.kill('SIGUSR2');
    },
  };
}

/** The admin of the portal processes of ProcessPortals. */
const PROCESS_ADMIN = { Email: 'admin@example.com', Password: 'crash test password' };

export interface ProcessPortals {
  /** The environment of a portal process on the database, with `PROCESS_ADMIN` and the tests' SECRET_KEY. */
  env: Record<string, string>;
  /** An API client signed in as `PROCESS_ADMIN` on a running process. */
  signIn(server: ServerProcess): Promise<PortalClient>;
}

/**
 * Portal processes that a test kills and starts again on the same data: a migrated database of
 * their own (a copy of the run's template: a PostgreSQL database on the server-postgres project,
 * else a SQLite file; the first process only creates the admin), made before the
 * tests of the file or describe block it is called in and removed after. `env` is added to the
 * processes' environment.
 */
export function useProcessPortals(env: Record<string, string> = {}): ProcessPortals {
  const portals: ProcessPortals = {
    env: {},
    async signIn(server) {
      const { accesstoken } = await new PortalClient({ baseUrl: server.url }).auth.login(PROCESS_ADMIN);
      return new PortalClient({ baseUrl: server.url, token: accesstoken });
    },
  };
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createPortalDatabase();
    portals.env = {
      DATABASE_URL: database.url,
      ADMIN_EMAIL: PROCESS_ADMIN.Email,
      ADMIN_PASSWORD: PROCESS_ADMIN.Password,
      SECRET_KEY: TEST_SECRET_KEY,
      ...env,
    };
  });
  afterAll(async () => {
    await database?.drop();
  });
  return portals;
}
