/** `toolsctl seed` and `toolsctl export`: the portal's data as a fixtures file, both ways. */
import { examples, Option, run, type AnyCommand } from '../define.js';

export function register(program: AnyCommand): void {
  program
    .command('seed')
    .argument('<file>', 'a fixtures file (JSON), e.g. fixtures/demo.json')
    .description('create the clients, apps, users, grants and invites of a fixtures file that are missing (idempotent)')
    .addHelpText('after', examples('toolsctl seed fixtures/demo.json'))
    .action((file, _options, command) => run(command, async (ctx) => (await import('../handlers/seed.js')).seed(ctx, file)));
  program
    .command('export')
    .description(
      'write clients, apps, users and open invites as a fixtures file (users without passwords); with --format, the portal as a setup document for plan and apply',
    )
    .option('-o, --output <file>', 'write to a file instead of stdout (a setup document: its icons under icons/ beside it)')
    .addOption(new Option('--format <format>', 'write a setup document (docs/cli.md) in this format').choices(['yaml', 'json'] as const))
    .addHelpText('after', examples('toolsctl export -o portal.json', 'toolsctl export --format yaml -o portal.yaml'))
    .action((options, command) =>
      run(command, async (ctx) => {
        const { format } = options;
        if (format) return (await import('../handlers/setup.js')).exportSetup(ctx, { format, output: options.output });
        return (await import('../handlers/export.js')).exportFixtures(ctx, options);
      }),
    );
}
