/**
 * The provider of this instance (docs/oidc.md), rebuilt when the signing keys change. How it is
 * configured, part by part, is oidc/configuration.ts.
 */
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { buildProvider } from './configuration.js';
import type { OidcDeps } from './deps.js';
import { ensureSigningKeys, keySetVersion, loadKeySet } from './signing-keys.js';

// How often an instance checks whether another one rotated the signing keys.
const KEY_CHECK_MS = 5000;

/**
 * The provider of this instance, rebuilt when the signing keys change (a rotation on any
 * instance is seen within KEY_CHECK_MS).
 */
export class OidcProvider {
  private provider: Provider | undefined;
  private handler: ((req: IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>) | undefined;
  private version = '';
  private checkedAt = 0;
  private building: Promise<void> | undefined;

  constructor(private readonly deps: OidcDeps) {}

  /** Makes the first signing keys when there are none (at start; needs SECRET_KEY). */
  async prepare(): Promise<void> {
    if (!this.deps.secrets.available) return;
    await ensureSigningKeys(this.deps.db, this.deps.secrets);
  }

  /** Forget the built provider: the next request rebuilds it (after a rotation on this instance). */
  invalidate(): void {
    this.checkedAt = 0;
  }

  async current(): Promise<Provider> {
    await this.refresh();
    return this.provider!;
  }

  async callback(): Promise<(req: IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>> {
    await this.refresh();
    return this.handler!;
  }

  private async refresh(): Promise<void> {
    if (this.provider && Date.now() - this.checkedAt < KEY_CHECK_MS) return;
    this.building ??= (async () => {
      try {
        const version = await keySetVersion(this.deps.db);
        if (!this.provider || version !== this.version) {
          if (version === '') await this.prepare();
          const set = await loadKeySet(this.deps.db, this.deps.secrets);
          const provider = await buildProvider(this.deps, { keys: set.keys });
          this.provider = provider;
          this.handler = provider.callback() as never;
          this.version = set.version;
        }
        this.checkedAt = Date.now();
      } finally {
        this.building = undefined;
      }
    })();
    await this.building;
  }
}
