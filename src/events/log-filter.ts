import type { StoredEvent } from './envelope';
import type { LogQuery } from './event-store';

export type LogFilter = Omit<LogQuery, 'after' | 'limit' | 'until'>;

/** The audit filters of `queryLog` as a predicate, for stores that filter the feed as they read it. */
export function matchesLogFilter(event: StoredEvent, filter: LogFilter): boolean {
  const { metadata } = event;
  return (
    (filter.module === undefined || event.stream.startsWith(`${filter.module}.`)) &&
    (filter.stream === undefined || event.stream === filter.stream) &&
    (filter.type === undefined || event.type === filter.type) &&
    (filter.actor === undefined || metadata.actor === filter.actor) &&
    (filter.organisation === undefined || metadata.organisation === filter.organisation) &&
    (filter.from === undefined || metadata.occurred_at >= filter.from) &&
    (filter.to === undefined || metadata.occurred_at <= filter.to)
  );
}
