import { Readable } from 'node:stream';
import type { LogEntry, LogExportFormat, LogFilter, PortalClient } from '@tools-portal/core';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { writeOut, type Result } from '../output.js';
import { logList } from '../present.js';

export interface FilterOptions {
  user?: string;
  client?: string;
  actor?: string;
  type?: string;
  since?: string;
  until?: string;
  grep?: string;
}

export interface LogOptions extends FilterOptions {
  page: number;
  perPage: number;
  follow?: boolean;
  interval: number;
}

export interface ExportOptions extends FilterOptions {
  format: LogExportFormat;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `--since`/`--until`: a duration back from now (`7d`) as an ISO time, else the text as given (the server checks dates). */
export function when(option: string, value: string | undefined, now = Date.now()): string | undefined {
  if (value === undefined) return undefined;
  const relative = /^(\d{1,6})([smhdw])$/.exec(value.trim());
  if (relative) return new Date(now - Number(relative[1]) * UNIT_MS[relative[2]]).toISOString();
  if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim())) throw new UsageError(`${option}: give a duration (30m, 12h, 7d, 2w) or an ISO 8601 date (2026-11-23) or time`);
  return value.trim();
}

export function filterOf(options: FilterOptions): LogFilter {
  return {
    user: options.user,
    client: options.client,
    actor: options.actor,
    type: options.type,
    q: options.grep,
    from: when('--since', options.since),
    to: when('--until', options.until),
  };
}

const FOLLOW_PAGE_SIZE = 100;
// How far back one poll looks for entries it has not seen: 10 pages of 100.
const FOLLOW_MAX_PAGES = 10;

export async function logs(ctx: Context, options: LogOptions): Promise<Result | void> {
  const api = await ctx.client();
  const filter = filterOf(options);
  const entries = await api.logs.page(options.page, options.perPage, filter);
  if (!options.follow) return logList(entries);
  // New entries are newer than now: a fixed --until would hide them all.
  await follow(ctx, api, { filter: { ...filter, to: undefined }, initial: [...entries].reverse(), intervalSeconds: options.interval });
}

function line(ctx: Context, entry: LogEntry): string {
  if (ctx.mode === 'json') return `${JSON.stringify(entry)}\n`;
  if (ctx.mode === 'quiet') return `${entry.id}\n`;
  return `${entry.timestamp}  ${entry.type || '-'}  ${entry.client || '-'}  ${entry.user || '-'}  ${entry.actor ? `by ${entry.actor}  ` : ''}${entry.event}\n`;
}

/** Entries newer than `lastId`, oldest first. */
async function newerThan(api: PortalClient, filter: LogFilter, lastId: number): Promise<LogEntry[]> {
  const fresh: LogEntry[] = [];
  for (let page = 1; page <= FOLLOW_MAX_PAGES; page++) {
    const entries = await api.logs.page(page, FOLLOW_PAGE_SIZE, filter);
    const unseen = entries.filter((entry) => entry.id > lastId);
    fresh.push(...unseen);
    if (unseen.length < entries.length || entries.length < FOLLOW_PAGE_SIZE) break;
  }
  return fresh.reverse();
}

/** `--follow`: prints the page, then polls for new entries (one line each; JSON lines with --json) until interrupted. */
async function follow(
  ctx: Context,
  api: PortalClient,
  { filter, initial, intervalSeconds }: { filter: LogFilter; initial: LogEntry[]; intervalSeconds: number },
): Promise<void> {
  let lastId = initial.reduce((max, entry) => Math.max(max, entry.id), 0);
  await writeOut(initial.map((entry) => line(ctx, entry)).join(''));
  let stopped = false;
  let wake: () => void = () => {};
  const stop = () => {
    stopped = true;
    wake();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  while (!stopped) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalSeconds * 1000);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    if (stopped) break;
    try {
      const fresh = await newerThan(api, filter, lastId);
      if (fresh.length > 0) lastId = fresh[fresh.length - 1].id;
      await writeOut(fresh.map((entry) => line(ctx, entry)).join(''));
    } catch (error) {
      // The portal restarting is no reason to stop following; anything else is.
      if ((error as { code?: string }).code !== 'unavailable') throw error;
      ctx.note(`cannot reach ${ctx.url}; still trying`);
    }
  }
}

/** `toolsctl logs export`: the server's streamed file, copied to stdout as it arrives; a progress line on a terminal. */
export async function exportLog(ctx: Context, options: ExportOptions): Promise<void> {
  const api = await ctx.client();
  const filter = filterOf(options);
  const progress = process.stderr.isTTY === true && ctx.mode !== 'quiet';
  const { total } = progress ? await api.logs.count(filter) : { total: 0 };
  const response = await api.logs.export(options.format, filter);
  if (!response.body) throw new Error('the portal answered the export without a body');
  let lines = 0;
  let shown = 0;
  const show = (final = false) => {
    const entries = Math.max(0, options.format === 'csv' ? lines - 1 : lines);
    process.stderr.write(`\rexported ${entries.toLocaleString('en')} of ${total.toLocaleString('en')} entries${final ? '\n' : ''}`);
  };
  for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    const buffer = chunk as Buffer;
    for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) lines++;
    if (!process.stdout.write(buffer)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    if (progress && Date.now() - shown > 200) {
      shown = Date.now();
      show();
    }
  }
  if (progress) show(true);
}
