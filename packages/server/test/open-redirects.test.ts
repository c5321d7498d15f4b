/**
 * Every payload of oauth2-proxy's open-redirect corpus (fixtures/openredirects) as the redirect target
 * of a real password login and registration: the portal answers the default target each time.
 */
import fs from 'node:fs';
import { DEFAULT_REDIRECT } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { seedInvite } from './support/seed.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, unique, USER_PASSWORD, useTestPortal } from './support/support.js';

const corpus = fs
  .readFileSync(new URL('../../../fixtures/openredirects/openredirects.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.length > 0);

const portal = useTestPortal();

describe('open redirects', () => {
  it('the corpus is there', () => {
    expect(corpus.length).toBeGreaterThan(500);
  });

  it('password login falls back to the default for every payload', async () => {
    const followed: string[] = [];
    for (const redirect of corpus) {
      const answer = await portal.anonymous.auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD, redirect });
      if (answer.redirect !== DEFAULT_REDIRECT) followed.push(`${redirect} -> ${answer.redirect}`);
    }
    expect(followed).toEqual([]);
    // 558 logins one after another: on a loaded machine they take longer than the default 20 s.
  }, 120_000);

  it('registration falls back to the default for every payload', async () => {
    const client = await portal.admin.clients.create(unique('redirects'));
    const followed: string[] = [];
    // Each payload gets an invite of its own (seeded: ./support/seed.ts): registering consumes it.
    for (const redirect of corpus) {
      const invite = await seedInvite(portal, { client });
      const answer = await portal.anonymous.auth.register({ Token: invite.token, Password: USER_PASSWORD, redirect });
      if (answer.redirect !== DEFAULT_REDIRECT) followed.push(`${redirect} -> ${answer.redirect}`);
    }
    expect(followed).toEqual([]);
  }, 120_000);
});
