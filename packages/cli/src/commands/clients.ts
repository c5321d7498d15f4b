/** `toolsctl clients …`: clients, groups of users with a unique name. */
import { examples, run, yes, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/clients.js');

export function register(program: AnyCommand): void {
  const clients = program.command('clients').description('clients: groups of users with a unique name');
  clients
    .command('list')
    .description('list clients')
    .addHelpText('after', examples('toolsctl clients list'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  clients
    .command('show')
    .argument('<client>', 'client id or name')
    .description('show a client and its users')
    .addHelpText('after', examples('toolsctl clients show Acme'))
    .action((client, _options, command) => run(command, async (ctx) => (await handlers()).show(ctx, client)));
  clients
    .command('create')
    .argument('<name>', 'the unique client name')
    .description('create a client')
    .addHelpText('after', examples('toolsctl clients create Acme --quiet'))
    .action((name, _options, command) => run(command, async (ctx) => (await handlers()).create(ctx, name)));
  clients
    .command('rename')
    .argument('<client>', 'client id or name')
    .argument('<name>', 'the new name (trimmed; no commas, control or invisible characters, nothing that reads as Admin)')
    .description('rename a client (not the Admin client)')
    .addHelpText('after', examples('toolsctl clients rename Acme "Acme Corp"'))
    .action((...[client, name, , command]) => run(command, async (ctx) => (await handlers()).rename(ctx, client, name)));
  clients
    .command('delete')
    .argument('<client>', 'client id or name')
    .addOption(yes())
    .description('delete a client and its users (not app data)')
    .addHelpText('after', examples('toolsctl clients delete Acme --yes'))
    .action((client, options, command) => run(command, async (ctx) => (await handlers()).remove(ctx, client, options)));
  clients
    .command('users')
    .argument('<client>', 'client id or name')
    .description("list a client's users, by email")
    .addHelpText('after', examples('toolsctl clients users Acme'))
    .action((client, _options, command) => run(command, async (ctx) => (await handlers()).users(ctx, client)));
}
