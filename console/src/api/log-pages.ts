import { requestJson } from './client';
import type { LogEvent } from './audit';

/** The filters of the event log, as the address holds them. */
export const LOG_FILTERS = ['module', 'type', 'actor', 'from', 'to'] as const;
export type LogFilters = Partial<Record<(typeof LOG_FILTERS)[number], string>>;

interface LogAnswer {
  data: LogEvent[];
  meta: { next_after: number | null; head_position: number };
}

/** The most the audit API answers at once. */
const MOST = 1000;

export interface NewestPage {
  /** Newest first. */
  events: LogEvent[];
  /** Where the next older page ends (`until`), or null at the log's start. */
  older: number | null;
  head: number;
}

/**
 * The newest `size` events matching `filters` at or before `until` (the log's head when absent). The
 * audit API pages forwards from a position, so the page is found by looking back through windows of
 * positions that grow fourfold until they hold enough matches: a few requests for sparse filters,
 * one for the whole log.
 */
export async function newestPage(
  auditUrl: string,
  token: string | undefined,
  filters: LogFilters,
  until: number | undefined,
  size: number,
): Promise<NewestPage> {
  const ask = (query: Record<string, string>) =>
    requestJson<LogAnswer>(
      `${auditUrl}/api/v1/events?${new URLSearchParams({ ...filters, ...query }).toString()}`,
      { token },
    );
  const head = (await ask({ limit: '1' })).meta.head_position;
  const top = Math.min(until ?? head, head);
  for (let window = size; ; window *= 4) {
    const from = Math.max(0, top - window);
    let found: LogEvent[] = [];
    let after: number | null = from;
    while (after !== null) {
      const page = await ask({ after: String(after), until: String(top), limit: String(MOST) });
      // Only the newest `size` are kept: a dense window is read on to its end.
      found = [...found, ...page.data].slice(-size);
      after = page.meta.next_after;
    }
    if (found.length >= size || from === 0) {
      const events = found.reverse();
      const oldest = events[events.length - 1];
      const older = from === 0 && found.length < size ? null : oldest ? oldest.position - 1 : null;
      return { events, older: older !== null && older > 0 ? older : null, head };
    }
  }
}
