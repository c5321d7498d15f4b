/**
 * The deployment files under deploy/: the systemd unit passes `systemd-analyze verify`; the
 * Dockerfile and compose file are checked for what can be checked without a Docker engine
 * (none runs here: docs/operations.md says what was and was not run).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { testDialect } from './support/database.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const deploy = (name: string) => fs.readFileSync(path.join(ROOT, 'deploy', name), 'utf8');
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
// Every variable the server reads (config.ts), to catch a misspelt one in the deployment files.
const KNOWN_VARIABLES = new Set(
  [...fs.readFileSync(path.join(ROOT, 'packages/server/src/config.ts'), 'utf8').matchAll(/\b(?:read|integer|boolean)\('([A-Z_]+)'/g)].map((match) => match[1]),
);

function verifyUnit(text: string): { status: number | null; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-unit-'));
  try {
    fs.writeFileSync(path.join(dir, 'tools-portal.service'), text);
    const run = spawnSync('systemd-analyze', ['verify', path.join(dir, 'tools-portal.service')], { encoding: 'utf8' });
    return { status: run.status, stderr: run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(testDialect() !== 'sqlite')('deploy/', () => {
  it.skipIf(!hasSystemdAnalyze && process.env.CI !== 'true')('tools-portal.service passes systemd-analyze verify, and a broken copy does not', () => {
    const unit = deploy('tools-portal.service');
    expect(verifyUnit(unit)).toEqual({ status: 0, stderr: '' });
    expect(verifyUnit(unit.replace('ExecStart=/usr/bin/node', 'ExecStart=/usr/bin/no-such-node')).status).not.toBe(0);
    expect(unit).toMatch(/^User=tools-portal$/m);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/opt\/tools-portal\/packages\/server\/dist\/main\.js$/m);
    for (const [, name] of unit.matchAll(/^Environment=([A-Z_]+)=/gm)) if (name !== 'NODE_ENV') expect(KNOWN_VARIABLES, name).toContain(name);
  });

  it('Dockerfile: two stages, a non-root runtime with a health check, sources that exist', () => {
    const dockerfile = deploy('Dockerfile');
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages).toHaveLength(2);
    const runtime = stages[1];
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n\s+CMD .*\/healthz/m);
    expect(runtime).toMatch(/^CMD \["node", "packages\/server\/dist\/main\.js"\]$/m);
    // What the build stage copies from the context exists in the repository.
    for (const [, source] of stages[0].matchAll(/^COPY (?!--)(\S+) /gm)) {
      if (source !== '.') expect(fs.existsSync(path.join(ROOT, source)), source).toBe(true);
    }
    // What the runtime copies out of the build is what `npm run build` makes here.
    for (const [, source] of runtime.matchAll(/^COPY --from=build \/src\/(\S+) /gm)) {
      expect(fs.existsSync(path.join(ROOT, source)), source).toBe(true);
    }
    for (const [, name] of runtime.matchAll(/\b([A-Z_]+)=\S+/g)) if (!['NODE_ENV'].includes(name)) expect(KNOWN_VARIABLES, name).toContain(name);
    expect(fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')).toMatch(/node_modules/);
  });

  it('compose.yaml: the portal on PostgreSQL, started once the database is healthy', () => {
    const compose = yaml.load(deploy('compose.yaml')) as {
      services: Record<
        string,
        {
          image?: string;
          build?: { context: string; dockerfile: string };
          depends_on?: Record<string, { condition: string }>;
          environment?: Record<string, string>;
          healthcheck?: unknown;
          ports?: string[];
        }
      >;
    };
    const { db, portal } = compose.services;
    expect(db.image).toMatch(/^postgres:\d+$/);
    expect(db.healthcheck).toBeDefined();
    expect(portal.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(fs.existsSync(path.join(ROOT, 'deploy', portal.build!.context, portal.build!.dockerfile))).toBe(true);
    expect(portal.environment!.DATABASE_URL).toMatch(/^postgres:\/\/portal:.*@db:5432\/portal$/);
    for (const name of Object.keys(portal.environment!)) expect(KNOWN_VARIABLES, name).toContain(name);
    expect(portal.ports).toEqual(['127.0.0.1:8080:8080']);
  });
});
