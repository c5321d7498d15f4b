/**
 * The event log as files (docs/event-log.md): CSV by RFC 4180 and JSON Lines, streamed batch by
 * batch, yielding to other requests between batches (SQLite reads are synchronous).
 */
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { CheckedLogFilter, LogEntry, LogExportFormat } from '@tools-portal/core';
import type { Knex } from 'knex';
import { eventBatches } from './log-query.js';

export const CSV_HEADER = ['timestamp', 'type', 'client', 'user', 'actor', 'event', 'ip', 'userAgent', 'count'] as const;

// A cell a spreadsheet would run as a formula (or hide behind a tab or CR) starts with one of these.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: a leading `'` defuses formulas; quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (entry: LogEntry) => `${CSV_HEADER.map((field) => csvCell(entry[field])).join(',')}\r\n`;

export const jsonLine = (entry: LogEntry) =>
  `${JSON.stringify(Object.fromEntries(CSV_HEADER.map((field) => [field, entry[field]])))}\n`;

export const EXPORT_TYPES: Record<LogExportFormat, { contentType: string; extension: string }> = {
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv' },
  jsonl: { contentType: 'application/x-ndjson; charset=utf-8', extension: 'jsonl' },
};

/** The export's text, a chunk per batch; pulled by the response stream, so never ahead of the client. */
export async function* exportLog(db: Knex, filter: CheckedLogFilter, format: LogExportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_HEADER.join(',')}\r\n`;
  const line = format === 'csv' ? csvLine : jsonLine;
  for await (const batch of eventBatches(db, filter)) {
    let chunk = '';
    for (const entry of batch) chunk += line(entry);
    yield chunk;
    await yieldToOthers();
  }
}
