/** `toolsctl oidc …`: the portal's OpenID provider (apps are enabled with `toolsctl apps oidc`). */
import { examples, run, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/oidc.js');

export function register(program: AnyCommand): void {
  const oidc = program.command('oidc').description("the portal's OpenID Connect provider");
  oidc
    .command('rotate-keys')
    .description('add new signing keys; the old ones stay published until their tokens have expired')
    .addHelpText('after', examples('toolsctl oidc rotate-keys'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).rotateKeys(ctx)));
}
