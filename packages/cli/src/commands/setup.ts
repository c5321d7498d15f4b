/** `toolsctl plan`, `apply`: the portal's setup as a file (docs/cli.md, "The portal's setup as a file"). */
import { examples, Option, run, yes, type AnyCommand } from '../define.js';

const file = () => new Option('-f, --file <file>', 'the setup document (YAML or JSON)').makeOptionMandatory();
const prune = () => new Option('--prune', 'also remove the apps, clients, teams, memberships and grants the file leaves out');

export function register(program: AnyCommand): void {
  program
    .command('plan')
    .description('show what applying a setup document would change: + add, ~ change (old → new), - remove')
    .addOption(file())
    .addOption(prune())
    .option('--check', 'exit with code 5 when the portal differs from the file (CI)')
    .addHelpText('after', examples('toolsctl plan -f portal.yaml', 'toolsctl plan -f portal.yaml --check'))
    .action((options, command) => run(command, async (ctx) => (await import('../handlers/setup.js')).plan(ctx, options)));
  program
    .command('apply')
    .description('make the portal look like a setup document, all or nothing (asks first on a terminal)')
    .addOption(file())
    .addOption(prune())
    .addOption(yes())
    .option('--secrets-out <file>', 'write new OpenID client secrets to this file (mode 0600) instead of printing them')
    .addHelpText('after', examples('toolsctl apply -f portal.yaml', 'toolsctl apply -f portal.yaml --prune --yes --secrets-out secrets.json'))
    .action((options, command) => run(command, async (ctx) => (await import('../handlers/setup.js')).apply(ctx, options)));
}
