import type { StoredEvent } from '../events/envelope';

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
  'prev_hash',
  'hash',
] as const;

function csvCell(value: unknown): string {
  const text =
    value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line of a format, if it has one. */
export function header(format: LogFormat): string | null {
  if (format === 'table') return TABLE_COLUMNS.join('\t');
  if (format === 'csv') return CSV_COLUMNS.join(',');
  return null;
}

/** One event as one line of the format. */
export function formatEvent(event: StoredEvent, format: LogFormat): string {
  if (format === 'ndjson') return JSON.stringify(event);
  const { metadata } = event;
  if (format === 'table') {
    return [event.position, metadata.occurred_at, event.stream, event.type, metadata.actor].join('\t');
  }
  const row: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    ...event,
    occurred_at: metadata.occurred_at,
    actor: metadata.actor,
    organisation: metadata.organisation,
    request_id: metadata.request_id,
  };
  return CSV_COLUMNS.map((column) => csvCell(row[column])).join(',');
}
