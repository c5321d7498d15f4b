/** What the OpenID provider's parts need from the server (oidc/configuration.ts hands them on). */
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { AuthCache } from '../services/access/auth-cache.js';
import type { LastUse } from '../services/access/last-use.js';
import type { SecretBox } from '../services/support/secret-box.js';

export interface OidcDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  secrets: SecretBox;
  authCache: AuthCache;
  /** Records each sign-in to an app as its last use (services/access/last-use.ts). */
  lastUse: LastUse;
}
