import { escapeControls, jsonText } from '../cli/terminal';
import type { ServedEvent } from '../privacy/served-events';

export type LogFormat = 'table' | 'ndjson' | 'csv';

const TABLE_COLUMNS = ['position', 'occurred_at', 'stream', 'type', 'actor'] as const;
const CSV_COLUMNS = [
  'position',
  'event_id',
  'stream',
  'revision',
  'type',
  'schema_version',
  'occurred_at',
  'actor',
  'organisation',
  'request_id',
  'data',
  'opened',
  'prev_hash',
  'hash',
] as const;

/** Spreadsheets run a cell that starts with one of these as a formula (CSV injection, as OWASP names it). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell: quoted where needed, and a would-be formula neutralised with a leading `'`. */
export function csvCell(value: unknown): string {
  const raw =
    value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const text = FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line of a format, if it has one. */
export function header(format: LogFormat): string | null {
  if (format === 'table') return TABLE_COLUMNS.join('\t');
  if (format === 'csv') return CSV_COLUMNS.join(',');
  return null;
}

/**
 * One event as one line of the format, as stored with its opened values beside (`data` and `opened`). The table's cells have their control characters escaped, so
 * no value can forge a row or a column; NDJSON is JSON (with DEL and C1 escaped too), CSV quotes.
 */
export function formatEvent(event: ServedEvent, format: LogFormat): string {
  if (format === 'ndjson') return jsonText(event);
  const { metadata } = event;
  if (format === 'table') {
    const cells = [event.position, metadata.occurred_at, event.stream, event.type, metadata.actor];
    return cells.map((cell) => escapeControls(String(cell))).join('\t');
  }
  const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    ...event,
    opened: event.opened,
    occurred_at: metadata.occurred_at,
    actor: metadata.actor,
    organisation: metadata.organisation,
    request_id: metadata.request_id,
  };
  return CSV_COLUMNS.map((column) => csvCell(row[column])).join(',');
}
