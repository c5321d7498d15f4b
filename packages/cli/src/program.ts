/**
 * The root command: global options and help. Each command group declares its commands, with
 * their typed options beside their actions, in its own file under `commands/`; add a group by
 * writing one and listing it in GROUPS.
 */
import { createRequire } from 'node:module';
import * as apps from './commands/apps.js';
import * as auth from './commands/auth.js';
import * as clients from './commands/clients.js';
import * as fixtures from './commands/fixtures.js';
import * as invites from './commands/invites.js';
import * as keys from './commands/keys.js';
import * as logs from './commands/logs.js';
import * as mail from './commands/mail.js';
import * as oidc from './commands/oidc.js';
import * as requests from './commands/requests.js';
import * as reviews from './commands/reviews.js';
import * as sessions from './commands/sessions.js';
import * as teams from './commands/teams.js';
import * as users from './commands/users.js';
import * as setup from './commands/setup.js';
import * as webhooks from './commands/webhooks.js';
import { Command, examples, type AnyCommand } from './define.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

/** In the order `--help` lists them. */
const GROUPS: Array<{ register(program: AnyCommand): void }> = [
  auth,
  apps,
  users,
  sessions,
  clients,
  teams,
  invites,
  keys,
  requests,
  reviews,
  logs,
  mail,
  webhooks,
  oidc,
  setup,
  fixtures,
];

const require = createRequire(import.meta.url);
const { version } = require('../package.json') as { version: string };

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

export function buildProgram(): AnyCommand {
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
  for (const group of GROUPS) group.register(program as AnyCommand);
  return program as AnyCommand;
}
