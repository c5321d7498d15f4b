/**
 * The file `toolsctl login` writes: the portal URL and its session token, readable by the user
 * only (0600), under the user's config directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface StoredConfig {
  url?: string;
  token?: string;
  email?: string;
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

export function writeConfig(config: StoredConfig): string {
  const file = configPath();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // writeFileSync keeps the mode of a file that already exists.
  fs.chmodSync(file, 0o600);
  return file;
}
