/**
 * First start on an empty database: the Admin client and the first admin, either with the
 * configured password or through an invite whose link is printed once.
 */
import { ADMIN_CLIENT_NAME } from '@tools-portal/core';
import { passwordProblem } from '@tools-portal/core/password-rules';
import type { Knex } from 'knex';
import { ConfigError } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import { logEvent, type Audit } from '../log/audit.js';
import { createAdminClient } from './clients.js';
import { createInvite } from './invites.js';
import type { PasswordHasher } from '../sign-in/passwords.js';

export interface BootstrapOptions {
  adminEmail: string;
  adminPassword: string | undefined;
  publicUrl: string;
  inviteTtlDays: number;
  /** PORTAL_NAME, which the first admin's password may not contain either. */
  portalName: string;
}

export type BootstrapResult = { created: false } | { created: true; adminEmail: string; inviteLink?: string };

const SYSTEM: Audit = { actor: null, ip: '', userAgent: 'bootstrap' };

export async function bootstrap(db: Knex, hasher: PasswordHasher, options: BootstrapOptions): Promise<BootstrapResult> {
  if (await db('clients').where({ name: ADMIN_CLIENT_NAME }).first()) return { created: false };
  // The first admin's password meets the rules every other password meets (docs/product.md).
  const problem = options.adminPassword ? await passwordProblem(options.adminPassword, { email: options.adminEmail, portalName: options.portalName }) : null;
  if (problem) throw new ConfigError([`ADMIN_PASSWORD is refused: ${problem}`]);
  const passwordHash = options.adminPassword ? await hasher.hash(options.adminPassword) : undefined;
  try {
    return await db.transaction(async (trx) => {
      const policy = {
        inviteTtlDays: options.inviteTtlDays,
        publicUrl: options.publicUrl,
        mail: undefined,
        defaultLanguage: 'en' as const,
        branding: { portalName: options.portalName },
      };
      const system = { ...SYSTEM, db: trx, policy, now: Date.now };
      const clientId = await createAdminClient(system);
      if (passwordHash) {
        await trx('users').insert({ email: options.adminEmail, client_id: clientId, password_hash: passwordHash, created_at: Date.now() });
        await logEvent(trx, SYSTEM, {
          type: 'admin.create',
          event: `created admin ${options.adminEmail}`,
          subject: { client: ADMIN_CLIENT_NAME, user: options.adminEmail },
        });
        return { created: true, adminEmail: options.adminEmail };
      }
      const invite = await createInvite(system, { email: options.adminEmail, clientid: clientId, apps: [] });
      return { created: true, adminEmail: options.adminEmail, inviteLink: invite.link };
    });
  } catch (error) {
    // Another instance bootstrapped the same empty database first.
    if (isUniqueViolation(error)) return { created: false };
    throw error;
  }
}
