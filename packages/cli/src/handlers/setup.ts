/**
 * The portal's setup as a file (docs/cli.md): `plan`, `apply` and `export --format`. The file is
 * YAML or JSON (YAML reads both); icons are paths relative to the file, sent with the document as
 * base64, and written beside an exported file under `icons/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SetupChange, SetupDocument, SetupPlan } from '@tools-portal/core';
import type { Context } from '../context.js';
import { PlanDiffersError, UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { confirmOrRefuse } from '../prompts.js';

interface Loaded {
  document: unknown;
  icons: { path: string; data: string }[];
}

async function load(file: string): Promise<Loaded> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const { parse } = await import('yaml');
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not YAML or JSON: ${(error as Error).message}`);
  }
  const icons: Loaded['icons'] = [];
  const apps = (document as { apps?: unknown } | null)?.apps;
  if (Array.isArray(apps)) {
    apps.forEach((app: unknown, index) => {
      const icon = (app as { icon?: unknown } | null)?.icon;
      if (typeof icon !== 'string' || icon.startsWith('sha256:') || icons.some((sent) => sent.path === icon)) return;
      try {
        icons.push({ path: icon, data: fs.readFileSync(path.resolve(path.dirname(file), icon)).toString('base64') });
      } catch (error) {
        throw new UsageError(`apps[${index}].icon: cannot read ${icon}: ${(error as Error).message}`);
      }
    });
  }
  return { document, icons };
}

const show = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** One line of a plan: `+ app wiki`, `~ app wiki url: https://a/ → https://b/`, `- team Old`. */
export function changeLine(change: SetupChange): string {
  if (change.op === '~') return `~ ${change.kind} ${change.name} ${change.field}: ${show(change.from)} → ${show(change.to)}`;
  return `${change.op} ${change.kind} ${change.name}`;
}

function summary(changes: readonly SetupChange[]): string {
  const count = (op: SetupChange['op']) => changes.filter((change) => change.op === op).length;
  return `${count('+')} to add, ${count('~')} to change, ${count('-')} to remove`;
}

function planText(plan: SetupPlan): string {
  if (plan.changes.length === 0) return 'nothing to change: the portal is as the file says';
  return [...plan.changes.map(changeLine), '', `${summary(plan.changes)} (plan ${plan.hash})`].join('\n');
}

export async function plan(ctx: Context, options: { file: string; prune?: true; check?: true }): Promise<Result> {
  const loaded = await load(options.file);
  const api = await ctx.client();
  const planned = await api.setup.plan({ ...loaded, prune: options.prune === true });
  const result: Result = { json: planned, quiet: [planned.hash], message: planText(planned) };
  if (options.check && planned.changes.length > 0) throw new PlanDiffersError(result, `the portal differs from ${options.file}: ${summary(planned.changes)}`);
  return result;
}

export async function apply(ctx: Context, options: { file: string; prune?: true; yes?: true; secretsOut?: string }): Promise<Result> {
  const loaded = await load(options.file);
  const api = await ctx.client();
  const prune = options.prune === true;
  const planned = await api.setup.plan({ ...loaded, prune });
  if (planned.changes.length === 0) return { json: { ...planned, secrets: [] }, quiet: [], message: planText(planned) };
  if (ctx.mode === 'human') process.stderr.write(`${planText(planned)}\n`);
  await confirmOrRefuse(`apply these ${planned.changes.length} changes`, options.yes);
  // The plan shown is the plan applied: anything changed in between is refused (409).
  const applied = await api.setup.apply({ ...loaded, prune, expect: planned.hash });
  const lines = [`applied ${applied.changes.length} changes (plan ${applied.hash})`];
  if (applied.secrets.length > 0) {
    if (options.secretsOut) {
      writePrivate(options.secretsOut, `${JSON.stringify(applied.secrets, null, 2)}\n`);
      lines.push(`${applied.secrets.length} new OpenID client secret(s) written to ${options.secretsOut}`);
    } else {
      lines.push('New OpenID client secrets (shown once):', ...applied.secrets.map((secret) => `  ${secret.client_id}: ${secret.client_secret}`));
    }
  }
  const json = options.secretsOut ? { ...applied, secrets: applied.secrets.map(({ app, client_id }) => ({ app, client_id })) } : applied;
  const quiet = options.secretsOut ? [applied.hash] : [applied.hash, ...applied.secrets.map((secret) => `${secret.client_id}\t${secret.client_secret}`)];
  return { json, quiet, message: lines.join('\n') };
}

function writePrivate(file: string, text: string): void {
  fs.writeFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

const ICON_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** `toolsctl export --format yaml|json`: the portal as a setup document; with `-o`, its icons beside the file. */
export async function exportSetup(ctx: Context, options: { format: 'yaml' | 'json'; output?: string }): Promise<Result> {
  const api = await ctx.client();
  const { document, icons } = await api.setup.export();
  if (options.output) writeIcons(document, { icons, output: options.output });
  const text = options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : (await import('yaml')).stringify(document);
  if (!options.output) return { json: document, quiet: [text.trimEnd()], message: text.trimEnd() };
  fs.writeFileSync(options.output, text);
  const counts = `${document.apps?.length ?? 0} app(s), ${document.teams?.length ?? 0} team(s), ${document.grants?.length ?? 0} grant(s)`;
  return { json: { file: options.output, document }, quiet: [options.output], message: `exported ${counts} to ${options.output}` };
}

/** Writes each icon to `icons/<app>.<ext>` beside the file and names it so in the document. */
function writeIcons(document: SetupDocument, { icons, output }: { icons: { path: string; type: string; data: string }[]; output: string }): void {
  const byDigest = new Map(icons.map((icon) => [icon.path, icon]));
  for (const app of document.apps ?? []) {
    const icon = app.icon === undefined ? undefined : byDigest.get(app.icon);
    if (!icon) continue;
    const relative = `icons/${app.name.replace(/[^A-Za-z0-9._-]/g, '_')}.${ICON_EXTENSIONS[icon.type] ?? 'png'}`;
    const target = path.resolve(path.dirname(output), relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, Buffer.from(icon.data, 'base64'));
    app.icon = relative;
  }
}
