/** `toolsctl apps oidc` and `toolsctl oidc rotate-keys` against a real portal (docs/cli.md, docs/oidc.md). */
import { describe, expect, it } from 'vitest';
import type { OidcClientCreated, OidcClientSettings, OidcKeyRotation } from '@tools-portal/core';
import { createApp, failure } from '../../server/test/support/support.js';
import { json, useAdminToolsctl } from './toolsctl.js';

const cli = useAdminToolsctl();
const { portal, run } = cli;

describe('toolsctl apps oidc', () => {
  it('enables an app as a client and prints the id and secret once; shows it; replaces it; turns it off', async () => {
    const app = await createApp(portal.admin);
    const enabled = await run(['apps', 'oidc', app.name, '--redirect-uri', 'https://wiki.example.com/cb', '--redirect-uri', 'http://localhost:3000/cb']);
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toMatch(new RegExp(`client_id\\s+│ ${app.name}`));
    const secret = /client_secret\s+│ (\S+)/.exec(enabled.stdout)![1]!;
    expect(secret.length).toBeGreaterThan(30);
    expect(enabled.stdout).toContain('shown this once');

    const shown = json<OidcClientSettings>(await run(['apps', 'oidc', app.name, '--json']));
    expect(shown).toMatchObject({ client_id: app.name, redirect_uris: ['https://wiki.example.com/cb', 'http://localhost:3000/cb'], public: false });
    expect(JSON.stringify(shown)).not.toContain(secret);

    const replaced = json<OidcClientCreated>(
      await run(['apps', 'oidc', String(app.id), '--redirect-uri', 'https://wiki.example.com/cb', '--alg', 'ES256', '--json']),
    );
    expect(replaced.client_secret).toBeTruthy();
    expect(replaced.client_secret).not.toBe(secret);
    expect(replaced.id_token_signed_response_alg).toBe('ES256');

    const quiet = await run(['apps', 'oidc', app.name, '--redirect-uri', 'https://spa.example.com/cb', '--public', '--quiet']);
    expect(quiet.stdout.trim()).toBe(app.name);
    expect((await portal.admin.apps.oidc.get(app.id)).public).toBe(true);

    const bad = await run(['apps', 'oidc', app.name, '--redirect-uri', 'http://wiki.example.com/cb']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('https');

    const off = await run(['apps', 'oidc', app.name, '--off']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain(`turned off OpenID Connect for app ${app.name}`);
    expect(await failure(portal.admin.apps.oidc.get(app.id))).toMatchObject({ code: 'not_found' });
    expect((await run(['apps', 'oidc', app.name, '--off', '--public'])).code).not.toBe(0);
  });

  it('rotates the signing keys', async () => {
    const rotation = json<OidcKeyRotation>(await run(['oidc', 'rotate-keys', '--json']));
    expect(rotation.signing).toHaveLength(2);
    expect(rotation.published.length).toBeGreaterThanOrEqual(4);
  });
});
