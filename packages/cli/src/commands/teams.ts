/** `toolsctl teams …`: teams of users that carry access to apps (docs/cli.md, Teams). */
import type { Context } from '../context.js';
import { examples, run, yes, type AnyCommand } from '../define.js';
import type { Result } from '../output.js';

const handlers = () => import('../handlers/teams.js');

/**
 * The action of a command with two arguments: commander passes them, then the options and the
 * command; the handler gets the context and one input.
 */
function twoArguments<A, B, O, I>(input: (a: A, b: B, options: O) => I, act: (ctx: Context, input: I) => Promise<Result>) {
  return (...[a, b, options, command]: [A, B, O, AnyCommand]) => run(command, (ctx) => act(ctx, input(a, b, options)));
}

const EXPIRES = 'a duration (7d, 12h, 30m, 2w) or a date/time (2026-12-01, 2026-12-01T18:00:00Z) when it ends';

export function register(program: AnyCommand): void {
  const teams = program.command('teams').description('teams: users of any client whose grants reach every member');
  teams
    .command('list')
    .description('list teams (every team for admins, your own for others)')
    .addHelpText('after', examples('toolsctl teams list', 'toolsctl teams list --json'))
    .action((_options, command) => run(command, async (ctx) => (await handlers()).list(ctx)));
  teams
    .command('show')
    .argument('<team>', 'team id or name')
    .description('show a team with its members and apps')
    .addHelpText('after', examples('toolsctl teams show Platform'))
    .action((team, _options, command) => run(command, async (ctx) => (await handlers()).show(ctx, team)));
  teams
    .command('create')
    .argument('<name>', 'the team name (the client-name rules; never Admin)')
    .option('-d, --description <text>', 'what the team is')
    .description('create a team')
    .addHelpText('after', examples('toolsctl teams create Platform --description "Runs the dashboards"'))
    .action((name, options, command) => run(command, async (ctx) => (await handlers()).create(ctx, name, options)));
  teams
    .command('rename')
    .argument('<team>', 'team id or name')
    .argument('<name>', 'the new name')
    .description('rename a team')
    .addHelpText('after', examples('toolsctl teams rename Platform "Platform Team"'))
    .action(
      twoArguments(
        (team: string, name: string) => ({ team, name }),
        async (ctx, input) => (await handlers()).rename(ctx, input),
      ),
    );
  teams
    .command('delete')
    .argument('<team>', 'team id or name')
    .addOption(yes())
    .description('delete a team: its memberships, grants and ownerships go with it')
    .addHelpText('after', examples('toolsctl teams delete Platform --yes'))
    .action((team, options, command) => run(command, async (ctx) => (await handlers()).remove(ctx, team, options)));
  teams
    .command('add-user')
    .argument('<team>', 'team id or name')
    .argument('<users...>', 'user ids or emails')
    .option('--expires <when>', EXPIRES)
    .description('add users to a team, for good or until --expires')
    .addHelpText(
      'after',
      examples('toolsctl teams add-user Platform ann@example.com bob@example.com', 'toolsctl teams add-user Platform eve@example.com --expires 30d'),
    )
    .action(
      twoArguments(
        (team: string, users: string[], options: { expires?: string }) => ({ team, users, ...options }),
        async (ctx, input) => (await handlers()).addUsers(ctx, input),
      ),
    );
  teams
    .command('remove-user')
    .argument('<team>', 'team id or name')
    .argument('<users...>', 'user ids or emails')
    .description('remove users from a team')
    .addHelpText('after', examples('toolsctl teams remove-user Platform bob@example.com'))
    .action(
      twoArguments(
        (team: string, users: string[]) => ({ team, users }),
        async (ctx, input) => (await handlers()).removeUsers(ctx, input),
      ),
    );
  teams
    .command('grant')
    .argument('<team>', 'team id or name')
    .argument('<apps...>', 'app ids or names')
    .option('--role <role>', "the role the grant carries (one of the app's; default: its first)")
    .option('--expires <when>', EXPIRES)
    .description('let a team use apps')
    .addHelpText('after', examples('toolsctl teams grant Platform grafana --role editor', 'toolsctl teams grant Platform wiki chat --expires 2026-12-31'))
    .action(
      twoArguments(
        (team: string, apps: string[], options: { role?: string; expires?: string }) => ({ team, apps, ...options }),
        async (ctx, input) => (await handlers()).grant(ctx, input),
      ),
    );
  teams
    .command('revoke')
    .argument('<team>', 'team id or name')
    .argument('<apps...>', 'app ids or names')
    .description("remove apps from a team (members' own grants stay)")
    .addHelpText('after', examples('toolsctl teams revoke Platform grafana'))
    .action(
      twoArguments(
        (team: string, apps: string[]) => ({ team, apps }),
        async (ctx, input) => (await handlers()).revoke(ctx, input),
      ),
    );
}
