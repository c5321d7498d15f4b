/** `toolsctl apps …`: apps, a name known to the auth system and a URL, and their users. */
import { Option, examples, run, yes, type AnyCommand } from '../define.js';

const handlers = () => import('../handlers/apps.js');
const oidcHandlers = () => import('../handlers/oidc.js');

export function register(program: AnyCommand): void {
  const apps = program.command('apps').description('apps: a name known to the auth system and a URL');
  apps
    .command('list')
    .description('list apps by name (all of them for admins)')
    .addOption(
      new Option('--view <view>', 'prod: no -dev URLs and no extern: apps; dev: only -dev URLs; extern: the Other Tools')
        .choices(['all', 'prod', 'dev', 'extern'] as const)
        .default('all' as const),
    )
    .addHelpText('after', examples('toolsctl apps list', 'toolsctl apps list --view dev --quiet'))
    .action((options, command) => run(command, async (ctx) => (await handlers()).list(ctx, options)));
  apps
    .command('show')
    .argument('<app>', 'app id or name')
    .description('show one app')
    .addHelpText('after', examples('toolsctl apps show wiki'))
    .action((app, _options, command) => run(command, async (ctx) => (await handlers()).show(ctx, app)));
  apps
    .command('create')
    .argument('<name>', 'the name that identifies the app to the auth system')
    .argument('<url>', 'the app URL (absolute http or https)')
    .description('create an app')
    .option('-d, --description <text>', 'what the app is for')
    .option('--description-de <text>', 'what the app is for, in German (German readers see it; empty: the English one)')
    .option('--doclink <url>', 'link to its documentation')
    .option('--category <text>', 'the group it shows in on the app list')
    .option('--requestable', 'users may ask for access to it')
    .addHelpText('after', examples('toolsctl apps create wiki https://wiki.example.com/ --description "The wiki" --category Knowledge --requestable'))
    .action((...[name, url, options, command]) => run(command, async (ctx) => (await handlers()).create(ctx, { name, url, ...options })));
  apps
    .command('update')
    .argument('<app>', 'app id or name')
    .option('--name <name>', 'new name')
    .option('--app-url <url>', 'new URL (--url names the portal)')
    .option('-d, --description <text>', 'what the app is for')
    .option('--description-de <text>', 'what the app is for, in German ("" for none)')
    .option('--doclink <url>', 'link to its documentation')
    .option('--category <text>', 'the group it shows in on the app list ("" for none)')
    .option('--requestable', 'users may ask for access to it')
    .option('--no-requestable', 'users may not ask for access to it')
    .description('change an app; fields not given stay as they are')
    .addHelpText(
      'after',
      examples('toolsctl apps update wiki --app-url https://wiki2.example.com/', 'toolsctl apps update vault --category Security --requestable'),
    )
    .action((app, { appUrl, ...options }, command) => run(command, async (ctx) => (await handlers()).update(ctx, app, { ...options, url: appUrl })));
  apps
    .command('delete')
    .argument('<app>', 'app id or name')
    .addOption(yes())
    .description('delete an app: removes user access, not app data')
    .addHelpText('after', examples('toolsctl apps delete wiki --yes'))
    .action((app, options, command) => run(command, async (ctx) => (await handlers()).remove(ctx, app, options)));
  apps
    .command('users')
    .argument('<app>', 'app id or name')
    .description("list an app's users")
    .addHelpText('after', examples('toolsctl apps users wiki'))
    .action((app, _options, command) => run(command, async (ctx) => (await handlers()).users(ctx, app)));
  apps
    .command('access')
    .argument('<app>', 'app id or name')
    .description("everyone who may use an app: roles, and whether directly or through which team (admins and the app's owners)")
    .addHelpText('after', examples('toolsctl apps access grafana', 'toolsctl apps access grafana --json'))
    .action((app, _options, command) => run(command, async (ctx) => (await handlers()).access(ctx, app)));
  apps
    .command('grant')
    .argument('<app>', 'app id or name')
    .argument('[users...]', 'user ids or emails')
    .option('--team <name>', 'a team to grant the app to (repeatable)', collect, [] as string[])
    .option('--role <role>', "the role the grants carry (one of the app's; default: its first)")
    .option('--expires <when>', 'a duration (7d, 12h, 30m, 2w) or a date/time (2026-12-01, 2026-12-01T18:00:00Z) when the grants end')
    .description('let users and teams use an app')
    .addHelpText(
      'after',
      examples(
        'toolsctl apps grant wiki ann@example.com bob@example.com',
        'toolsctl apps grant grafana --team Platform --role editor',
        'toolsctl apps grant vault eve@example.com --role viewer --expires 7d',
      ),
    )
    .action((...[app, users, options, command]) => run(command, async (ctx) => (await handlers()).grant(ctx, app, { users, ...options })));
  apps
    .command('revoke')
    .argument('<app>', 'app id or name')
    .argument('[users...]', 'user ids or emails')
    .option('--team <name>', 'a team to remove the app from (repeatable)', collect, [] as string[])
    .description("remove users' direct grants and teams' grants of an app")
    .addHelpText('after', examples('toolsctl apps revoke wiki bob@example.com', 'toolsctl apps revoke grafana --team Platform'))
    .action((...[app, users, options, command]) => run(command, async (ctx) => (await handlers()).revoke(ctx, app, { users, ...options })));
  const owners = apps.command('owners').description("an app's owners: users and teams who manage its access (admins only)");
  for (const action of ['add', 'remove'] as const) {
    owners
      .command(action)
      .argument('<app>', 'app id or name')
      .argument('[users...]', 'user ids or emails')
      .option('--team <name>', `a team to ${action} as owner (repeatable)`, collect, [] as string[])
      .description(action === 'add' ? 'make users and teams owners of an app' : 'stop users and teams owning an app')
      .addHelpText('after', examples(`toolsctl apps owners ${action} grafana ann@example.com --team Platform`))
      .action((...[app, users, options, command]) => run(command, async (ctx) => (await handlers()).owners(ctx, app, { action, users, teams: options.team })));
  }
  apps
    .command('icon')
    .argument('<app>', 'app id or name')
    .argument('[file]', 'a PNG, JPEG or WebP image of at most 256 KB')
    .option('--remove', 'remove the icon (the portal draws a monogram)')
    .description("set or remove an app's icon")
    .addHelpText('after', examples('toolsctl apps icon wiki wiki.png', 'toolsctl apps icon wiki --remove'))
    .action((...[app, file, options, command]) => run(command, async (ctx) => (await handlers()).icon(ctx, app, { file, ...options })));
  apps
    .command('oidc')
    .argument('<app>', 'app id or name')
    .description('make an app an OpenID Connect client (prints its client id and the secret, once), show its settings, or turn it off')
    .option(
      '--redirect-uri <url>',
      'a redirect URI of the app (repeat for several); enables or replaces the settings and issues a new secret',
      collect,
      [] as string[],
    )
    .option('--post-logout-redirect-uri <url>', 'where the app may send the browser after logout (repeatable)', collect, [] as string[])
    .option('--public', 'a public client: no secret, PKCE required')
    .option('--device', 'the app may also use the device grant (RFC 8628), as toolsctl login does')
    .addOption(new Option('--alg <alg>', 'ID token signature').choices(['RS256', 'ES256'] as const).default('RS256' as const))
    .option('--off', 'turn OpenID Connect off for the app')
    .addHelpText(
      'after',
      examples(
        'toolsctl apps oidc grafana --redirect-uri https://grafana.example.com/login/generic_oauth',
        'toolsctl apps oidc spa --redirect-uri https://spa.example.com/cb --public --json',
        'toolsctl apps oidc tv-dashboard --redirect-uri https://tv.example.com/cb --public --device',
        'toolsctl apps oidc grafana',
        'toolsctl apps oidc grafana --off',
      ),
    )
    .action((app, options, command) => run(command, async (ctx) => (await oidcHandlers()).appClient(ctx, app, options)));
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
