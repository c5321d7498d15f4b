import type { LogEntry, PortalClient } from '@tools-portal/core';
import type { Context } from '../context.js';
import { writeOut, type Result } from '../output.js';
import { logList } from '../present.js';

export interface LogOptions {
  page: number;
  perPage: number;
  follow?: boolean;
  interval: number;
}

const FOLLOW_PAGE_SIZE = 100;
// How far back one poll looks for entries it has not seen: 10 pages of 100.
const FOLLOW_MAX_PAGES = 10;

export async function logs(ctx: Context, options: LogOptions): Promise<Result | void> {
  const api = await ctx.client();
  const entries = await api.logs.page(options.page, options.perPage);
  if (!options.follow) return logList(entries);
  await follow(ctx, api, [...entries].reverse(), options.interval);
}

function line(ctx: Context, entry: LogEntry): string {
  if (ctx.mode === 'json') return `${JSON.stringify(entry)}\n`;
  if (ctx.mode === 'quiet') return `${entry.id}\n`;
  return `${entry.timestamp}  ${entry.client || '-'}  ${entry.user || '-'}  ${entry.event}\n`;
}

/** Entries newer than `lastId`, oldest first. */
async function newerThan(api: PortalClient, lastId: number): Promise<LogEntry[]> {
  const fresh: LogEntry[] = [];
  for (let page = 1; page <= FOLLOW_MAX_PAGES; page++) {
    const entries = await api.logs.page(page, FOLLOW_PAGE_SIZE);
    const unseen = entries.filter((entry) => entry.id > lastId);
    fresh.push(...unseen);
    if (unseen.length < entries.length || entries.length < FOLLOW_PAGE_SIZE) break;
  }
  return fresh.reverse();
}

/** `--follow`: prints the page, then polls for new entries (one line each; JSON lines with --json) until interrupted. */
async function follow(ctx: Context, api: PortalClient, initial: LogEntry[], intervalSeconds: number): Promise<void> {
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
      const fresh = await newerThan(api, lastId);
      if (fresh.length > 0) lastId = fresh[fresh.length - 1].id;
      await writeOut(fresh.map((entry) => line(ctx, entry)).join(''));
    } catch (error) {
      // The portal restarting is no reason to stop following; anything else is.
      if ((error as { code?: string }).code !== 'unavailable') throw error;
      ctx.note(`cannot reach ${ctx.url}; still trying`);
    }
  }
}
