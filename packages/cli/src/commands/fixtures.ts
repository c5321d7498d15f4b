/** `toolsctl seed` and `toolsctl export`: the portal's data as a fixtures file, both ways. */
import { examples, run, type AnyCommand } from '../define.js';

export function register(program: AnyCommand): void {
  program
    .command('seed')
    .argument('<file>', 'a fixtures file (JSON), e.g. fixtures/demo.json')
    .description('create the clients, apps, users, grants and invites of a fixtures file that are missing (idempotent)')
    .addHelpText('after', examples('toolsctl seed fixtures/demo.json'))
    .action((file, _options, command) => run(command, async (ctx) => (await import('../handlers/seed.js')).seed(ctx, file)));
  program
    .command('export')
    .description('write clients, apps, users and open invites as a fixtures file (users without passwords)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addHelpText('after', examples('toolsctl export -o portal.json'))
    .action((options, command) => run(command, async (ctx) => (await import('../handlers/export.js')).exportFixtures(ctx, options)));
}
