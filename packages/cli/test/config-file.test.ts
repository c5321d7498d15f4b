/**
 * The config file is replaced in one step (docs/cli.md, Signing in): a toolsctl that is reading it
 * while another saves a renewed session reads the old file whole, never a truncated one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configPath, readConfig, writeConfig } from '../src/config-file.js';
import { removeTempHomes, tempHome } from './toolsctl.js';

afterAll(() => {
  removeTempHomes();
});

describe('the config file', () => {
  it('is replaced, not rewritten in place: a reader that opened it before a write reads the old contents whole', () => {
    const home = tempHome();
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = path.join(home, '.config');
    try {
      const old = { url: 'http://127.0.0.1:8080', token: 'old token', refreshToken: 'old refresh', tokenExpires: 0 };
      writeConfig(old);
      const reader = fs.openSync(configPath(), 'r');
      try {
        writeConfig({ ...old, token: 'new token', refreshToken: 'new refresh', tokenExpires: Date.now() + 3_600_000 });
        expect(JSON.parse(fs.readFileSync(reader, 'utf8'))).toEqual(old);
      } finally {
        fs.closeSync(reader);
      }
      expect(readConfig()).toMatchObject({ token: 'new token', refreshToken: 'new refresh' });
      expect(fs.statSync(configPath()).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(path.dirname(configPath()))).toEqual(['config.json']);
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });
});
