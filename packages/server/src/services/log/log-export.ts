/**
 * The event log as files (docs/event-log.md): CSV by RFC 4180 and JSON Lines, streamed batch by
 * batch, yielding to other requests between batches (SQLite reads are synchronous).
 */
import { setImmediate as yieldToOthers } from 'node:timers/promises';
import type { CheckedLogFilter, LogEntry, LogExportFormat } from '@tools-portal/core';
import type { Knex } from 'knex';
import { eventBatch, type LogPosition } from './log-query.js';

const CSV_HEADER = ['timestamp', 'type', 'client', 'user', 'actor', 'event', 'ip', 'userAgent', 'count'] as const;

// A cell a spreadsheet would run as a formula (or hide behind a tab or CR) starts with one of these.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: a leading `'` defuses formulas; quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (entry: LogEntry) => `${CSV_HEADER.map((field) => csvCell(entry[field])).join(',')}\r\n`;

/** An entry as a JSON Lines export writes it (webhooks deliver it as their `data`). */
export const exportedEntry = (entry: LogEntry) => Object.fromEntries(CSV_HEADER.map((field) => [field, entry[field]]));

const jsonLine = (entry: LogEntry) => `${JSON.stringify(exportedEntry(entry))}\n`;

export const EXPORT_TYPES: Record<LogExportFormat, { contentType: string; extension: string }> = {
  csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv' },
  jsonl: { contentType: 'application/x-ndjson; charset=utf-8', extension: 'jsonl' },
};

/**
 * Entries a batch: its text (about 45 KB of CSV) stays below V8's large-object size, so that it
 * and the batch's rows die young; batches of 2,000 made chunks of 370 KB, which live in the old
 * generation until a full collection, and the server's memory grew by 150 MiB over an export of
 * a million entries (docs/performance.md).
 */
export const EXPORT_BATCH = 250;

/** One batch as text, and where to go on from; nothing of the batch outlives the call. */
async function batchText(db: Knex, filter: CheckedLogFilter, { after, line }: { after: LogPosition | undefined; line: (entry: LogEntry) => string }) {
  const { entries, next } = await eventBatch(db, filter, { after, size: EXPORT_BATCH });
  let text = '';
  for (const entry of entries) text += line(entry);
  return { text, next };
}

/** The export's text, a chunk per batch; pulled by the response stream, so never ahead of the client. */
export async function* exportLog(db: Knex, filter: CheckedLogFilter, format: LogExportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield `${CSV_HEADER.join(',')}\r\n`;
  const line = format === 'csv' ? csvLine : jsonLine;
  let after: LogPosition | undefined;
  do {
    const batch = await batchText(db, filter, { after, line });
    after = batch.next;
    if (batch.text) yield batch.text;
    await yieldToOthers();
  } while (after);
}
