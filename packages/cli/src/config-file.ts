/**
 * The file `toolsctl login` writes: the portal URL and its session token, readable by the user
 * only (0600), under the user's config directory. A sign-in in the browser (the device grant) saves
 * its access token as the token, with the refresh token and when the access token ends; both
 * stand for the portal session the sign-in made (docs/cli.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface StoredConfig {
  url?: string;
  token?: string;
  email?: string;
  /** The device grant's refresh token (rotated on every use), when the token is its access token. */
  refreshToken?: string;
  /** When the access token ends (ms since the epoch). */
  tokenExpires?: number;
}

function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'toolsctl');
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'toolsctl');
  return path.join(env.HOME || os.homedir(), '.config', 'toolsctl');
}

export const configPath = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), 'config.json');

export function readConfig(): StoredConfig {
  let text: string;
  try {
    text = fs.readFileSync(configPath(), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as StoredConfig) : {};
  } catch {
    return {};
  }
}

/**
 * Replaces the file in one step (a new file renamed over it), so that another toolsctl reading it
 * at that moment gets the old contents or the new, never a half-written file (which it would take
 * for no sign-in at all).
 */
export function writeConfig(config: StoredConfig): string {
  const file = configPath();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const next = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(next, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    // The mode given applies through the umask.
    fs.chmodSync(next, 0o600);
    fs.renameSync(next, file);
  } catch (error) {
    fs.rmSync(next, { force: true });
    throw error;
  }
  return file;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// A lock older than this was left by a process that died.
const STALE_LOCK_MS = 30_000;

/**
 * Runs `work` while holding the config file's lock (a file made with O_EXCL beside it), so that two
 * toolsctl processes do not both spend one refresh token (the server would end the sign-in).
 */
export async function withConfigLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = `${configPath()}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true, mode: 0o700 });
  for (let waited = 0; ; waited += 100) {
    try {
      fs.closeSync(fs.openSync(lock, 'wx', 0o600));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS || waited > STALE_LOCK_MS) fs.rmSync(lock, { force: true });
      await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
