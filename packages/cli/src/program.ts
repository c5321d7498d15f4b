/**
 * Every command, its arguments, help text and example. Handlers are imported only when their
 * command runs, so `toolsctl --help` loads commander and nothing heavy.
 */
import { createRequire } from 'node:module';
import type * as Commander from 'commander';
import { EXIT_CODES_HELP } from './exit-codes.js';
import type { Handler } from './run.js';

const require = createRequire(import.meta.url);
// commander is CommonJS: require() skips the ESM wrapper and its export analysis, a measurable part of a start.
const { Command, InvalidArgumentError, Option } = require('commander') as typeof Commander;
type Command = Commander.Command;

/** The action of a command; the runner (context, client, printer) loads when the command runs. */
const act = (handler: Handler) =>
  async function (this: Command): Promise<void> {
    const { run } = await import('./run.js');
    await run(this, handler);
  };

const { version } = require('../package.json') as { version: string };

const apps = () => import('./commands/apps.js');
const users = () => import('./commands/users.js');
const clients = () => import('./commands/clients.js');
const invites = () => import('./commands/invites.js');
const keys = () => import('./commands/keys.js');
const auth = () => import('./commands/auth.js');

const integer = (min: number, max: number) => (value: string) => {
  if (!/^[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
};

const examples = (...lines: string[]) => `\nExample${lines.length > 1 ? 's' : ''}:\n${lines.map((line) => `  $ ${line}`).join('\n')}`;

const yes = () => new Option('-y, --yes', 'do not ask for confirmation');

const ROOT_HELP = `
Naming resources: by id, or by natural key (app name, client name, user email, invite email);
a reference made only of digits is an id.

Server and credentials: --url or TOOLS_URL (default http://127.0.0.1:8080), --token or
TOOLS_TOKEN (a session token or an API key), else the session saved by \`toolsctl login\`
in $XDG_CONFIG_HOME/toolsctl/config.json (~/.config/toolsctl/config.json).

Output: tables for people (no colour when not a terminal or with NO_COLOR), --json for
scripts (stdout holds only JSON), --quiet for ids or the created secret only.

${EXIT_CODES_HELP}
${examples('toolsctl login --url https://portal.example.com', 'toolsctl invites create ann@example.com --client Acme --app wiki', 'toolsctl apps list --json', 'TOOLS_TOKEN=apikey-… toolsctl seed fixtures/demo.json')}`;

export function buildProgram(): Command {
  const program = new Command('toolsctl')
    .description('Command-line client of the Tools-Portal: every admin operation of its REST API.')
    .version(version)
    .option('--url <url>', 'the portal, e.g. https://portal.example.com (env TOOLS_URL)')
    .option('--token <token>', 'a session token or an API key (env TOOLS_TOKEN)')
    .option('--json', 'print JSON only (for scripts)')
    .option('-q, --quiet', 'print only ids, or the created secret')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', ROOT_HELP);
  // Subcommands inherit exitOverride and the output settings from here on.
  program.configureHelp({ showGlobalOptions: true });

  program
    .command('login')
    .description('log in with email and password and save the session (asks on a terminal)')
    .option('--email <email>', 'the email to log in with')
    .option('--password-stdin', 'read the password from stdin')
    .addHelpText('after', examples('toolsctl login --url http://127.0.0.1:8080', "printf '%s' \"$PASSWORD\" | toolsctl login --email admin@example.com --password-stdin"))
    .action(act(async (ctx, _args, options) => (await auth()).login(ctx, options)));
  program
    .command('logout')
    .description('end the saved session on the server and forget it')
    .addHelpText('after', examples('toolsctl logout'))
    .action(act(async (ctx) => (await auth()).logout(ctx)));
  program
    .command('whoami')
    .description('show who the credentials belong to')
    .addHelpText('after', examples('toolsctl whoami --json'))
    .action(act(async (ctx) => (await auth()).whoami(ctx)));

  const appFields = (command: Command) =>
    command
      .option('-d, --description <text>', 'what the app is for')
      .option('--doclink <url>', 'link to its documentation');

  const appsCommand = program.command('apps').description('apps: a name known to the auth system and a URL');
  appsCommand
    .command('list')
    .description('list apps by name (all of them for admins)')
    .addOption(
      new Option('--view <view>', 'prod: no -dev URLs and no extern: apps; dev: only -dev URLs; extern: the Other Tools')
        .choices(['all', 'prod', 'dev', 'extern'])
        .default('all'),
    )
    .addHelpText('after', examples('toolsctl apps list', 'toolsctl apps list --view dev --quiet'))
    .action(act(async (ctx, _args, options) => (await apps()).list(ctx, options)));
  appsCommand
    .command('show')
    .argument('<app>', 'app id or name')
    .description('show one app')
    .addHelpText('after', examples('toolsctl apps show wiki'))
    .action(act(async (ctx, [app]) => (await apps()).show(ctx, app)));
  appFields(
    appsCommand
      .command('create')
      .argument('<name>', 'the name that identifies the app to the auth system')
      .argument('<url>', 'the app URL (absolute http or https)')
      .description('create an app'),
  )
    .addHelpText('after', examples('toolsctl apps create wiki https://wiki.example.com/ --description "The wiki"'))
    .action(act(async (ctx, [name, url], options) => (await apps()).create(ctx, name, url, options)));
  appFields(
    appsCommand
      .command('update')
      .argument('<app>', 'app id or name')
      .option('--name <name>', 'new name')
      .option('--app-url <url>', 'new URL (--url names the portal)')
      .description('change an app; fields not given stay as they are'),
  )
    .addHelpText('after', examples('toolsctl apps update wiki --app-url https://wiki2.example.com/'))
    .action(act(async (ctx, [app], options) => (await apps()).update(ctx, app, { ...options, url: options.appUrl })));
  appsCommand
    .command('delete')
    .argument('<app>', 'app id or name')
    .addOption(yes())
    .description('delete an app: removes user access, not app data')
    .addHelpText('after', examples('toolsctl apps delete wiki --yes'))
    .action(act(async (ctx, [app], options) => (await apps()).remove(ctx, app, options)));
  appsCommand
    .command('users')
    .argument('<app>', 'app id or name')
    .description("list an app's users")
    .addHelpText('after', examples('toolsctl apps users wiki'))
    .action(act(async (ctx, [app]) => (await apps()).users(ctx, app)));
  appsCommand
    .command('grant')
    .argument('<app>', 'app id or name')
    .argument('<users...>', 'user ids or emails')
    .description('let users use an app')
    .addHelpText('after', examples('toolsctl apps grant wiki ann@example.com bob@example.com'))
    .action(act(async (ctx, [app, refs]) => (await apps()).grant(ctx, app, refs)));
  appsCommand
    .command('revoke')
    .argument('<app>', 'app id or name')
    .argument('<users...>', 'user ids or emails')
    .description('remove users from an app')
    .addHelpText('after', examples('toolsctl apps revoke wiki bob@example.com'))
    .action(act(async (ctx, [app, refs]) => (await apps()).revoke(ctx, app, refs)));

  const usersCommand = program.command('users').description('users: one client each, identified by email, with apps');
  usersCommand
    .command('list')
    .description('list users')
    .addHelpText('after', examples('toolsctl users list --json'))
    .action(act(async (ctx) => (await users()).list(ctx)));
  usersCommand
    .command('show')
    .argument('<user>', 'user id or email')
    .description('show a user with client and apps')
    .addHelpText('after', examples('toolsctl users show ann@example.com'))
    .action(act(async (ctx, [user]) => (await users()).show(ctx, user)));
  usersCommand
    .command('delete')
    .argument('<user>', 'user id or email')
    .addOption(yes())
    .description('delete a user: credentials, sessions, API keys and grants')
    .addHelpText('after', examples('toolsctl users delete ann@example.com --yes'))
    .action(act(async (ctx, [user], options) => (await users()).remove(ctx, user, options)));
  usersCommand
    .command('apps')
    .argument('<user>', 'user id or email')
    .description("list a user's apps")
    .addHelpText('after', examples('toolsctl users apps ann@example.com'))
    .action(act(async (ctx, [user]) => (await users()).apps(ctx, user)));
  usersCommand
    .command('grant')
    .argument('<user>', 'user id or email')
    .argument('<apps...>', 'app ids or names')
    .description('let a user use apps')
    .addHelpText('after', examples('toolsctl users grant ann@example.com wiki chat'))
    .action(act(async (ctx, [user, refs]) => (await users()).grant(ctx, user, refs)));
  usersCommand
    .command('revoke')
    .argument('<user>', 'user id or email')
    .argument('<apps...>', 'app ids or names')
    .description('take apps away from a user')
    .addHelpText('after', examples('toolsctl users revoke ann@example.com chat'))
    .action(act(async (ctx, [user, refs]) => (await users()).revoke(ctx, user, refs)));
  usersCommand
    .command('end-sessions')
    .argument('<user>', 'user id or email')
    .description('log a user out everywhere now (API keys stay valid)')
    .addHelpText('after', examples('toolsctl users end-sessions ann@example.com'))
    .action(act(async (ctx, [user]) => (await users()).endSessions(ctx, user)));

  const clientsCommand = program.command('clients').description('clients: groups of users with a unique name');
  clientsCommand
    .command('list')
    .description('list clients')
    .addHelpText('after', examples('toolsctl clients list'))
    .action(act(async (ctx) => (await clients()).list(ctx)));
  clientsCommand
    .command('show')
    .argument('<client>', 'client id or name')
    .description('show a client and its users')
    .addHelpText('after', examples('toolsctl clients show Acme'))
    .action(act(async (ctx, [client]) => (await clients()).show(ctx, client)));
  clientsCommand
    .command('create')
    .argument('<name>', 'the unique client name')
    .description('create a client')
    .addHelpText('after', examples('toolsctl clients create Acme --quiet'))
    .action(act(async (ctx, [name]) => (await clients()).create(ctx, name)));
  clientsCommand
    .command('delete')
    .argument('<client>', 'client id or name')
    .addOption(yes())
    .description('delete a client and its users (not app data)')
    .addHelpText('after', examples('toolsctl clients delete Acme --yes'))
    .action(act(async (ctx, [client], options) => (await clients()).remove(ctx, client, options)));
  clientsCommand
    .command('users')
    .argument('<client>', 'client id or name')
    .description("list a client's users, by email")
    .addHelpText('after', examples('toolsctl clients users Acme'))
    .action(act(async (ctx, [client]) => (await clients()).users(ctx, client)));

  const invitesCommand = program.command('invites').description('invitations (registration tokens)');
  invitesCommand
    .command('list')
    .description('list open invites')
    .addHelpText('after', examples('toolsctl invites list'))
    .action(act(async (ctx) => (await invites()).list(ctx)));
  invitesCommand
    .command('create')
    .argument('<email>', 'who is invited')
    .requiredOption('-c, --client <client>', 'client id or name the user will belong to')
    .option('-a, --app <app...>', 'app ids or names to grant (repeatable)')
    .option('--link-app <name>', 'the app the link leads to after registering (default: the first app, else the portal)')
    .description('invite an email and print the registration link')
    .addHelpText('after', examples('toolsctl invites create ann@example.com --client Acme --app wiki --app chat', 'LINK=$(toolsctl invites create bob@example.com -c Acme -q)'))
    .action(act(async (ctx, [email], options) => (await invites()).create(ctx, email, options)));
  invitesCommand
    .command('delete')
    .argument('<invite>', 'invite id or email')
    .addOption(yes())
    .description('delete an open invite')
    .addHelpText('after', examples('toolsctl invites delete ann@example.com --yes'))
    .action(act(async (ctx, [invite], options) => (await invites()).remove(ctx, invite, options)));

  const keysCommand = program.command('keys').description('your API keys (access tokens)');
  keysCommand
    .command('list')
    .description('list your API keys, masked')
    .addHelpText('after', examples('toolsctl keys list'))
    .action(act(async (ctx) => (await keys()).list(ctx)));
  keysCommand
    .command('create')
    .description('generate an API key and print it once')
    .addHelpText('after', examples('TOOLS_TOKEN=$(toolsctl keys create --quiet)'))
    .action(act(async (ctx) => (await keys()).create(ctx)));
  keysCommand
    .command('delete')
    .argument('<key>', 'the key id or the full key')
    .addOption(yes())
    .description('delete an API key')
    .addHelpText('after', examples('toolsctl keys delete 3 --yes'))
    .action(act(async (ctx, [key], options) => (await keys()).remove(ctx, key, options)));

  program
    .command('logs')
    .description('show the auth event log, newest first')
    .option('--page <n>', 'page, from 1', integer(1, 1_000_000), 1)
    .option('--per-page <n>', 'entries a page, at most 100', integer(1, 100), 20)
    .option('-f, --follow', 'keep polling and print new entries as they come (Ctrl+C stops)')
    .option('--interval <seconds>', 'seconds between polls with --follow', integer(1, 3600), 2)
    .addHelpText('after', examples('toolsctl logs --per-page 50', 'toolsctl logs --follow --json'))
    .action(act(async (ctx, _args, options) => (await import('./commands/logs.js')).logs(ctx, options)));

  program
    .command('seed')
    .argument('<file>', 'a fixtures file (JSON), e.g. fixtures/demo.json')
    .description('create the clients, apps, users, grants and invites of a fixtures file that are missing (idempotent)')
    .addHelpText('after', examples('toolsctl seed fixtures/demo.json'))
    .action(act(async (ctx, [file]) => (await import('./commands/seed.js')).seed(ctx, file)));
  program
    .command('export')
    .description('write clients, apps, users and open invites as a fixtures file (users without passwords)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .addHelpText('after', examples('toolsctl export -o portal.json'))
    .action(act(async (ctx, _args, options) => (await import('./commands/export.js')).exportFixtures(ctx, options)));

  return program;
}
