import type { StoredEvent } from './envelope';
import type { SuiteCatalog } from './catalog';
import { listOf, type LogQuery, type OneOrMore } from './event-store';

export type LogFilter = Omit<LogQuery, 'after' | 'limit' | 'until'>;

/** No filter, or one of its values matches. */
const anyMatches = (filter: OneOrMore | undefined, matches: (value: string) => boolean): boolean =>
  filter === undefined || listOf(filter).some(matches);

/** The audit filters of `queryLog` as a predicate, for stores that filter the feed as they read it. */
export function matchesLogFilter(event: StoredEvent, filter: LogFilter): boolean {
  const { metadata } = event;
  return (
    anyMatches(filter.module, (module) => event.stream.startsWith(`${module}.`)) &&
    anyMatches(filter.stream, (stream) => event.stream === stream) &&
    anyMatches(filter.type, (type) => event.type === type) &&
    (filter.actor === undefined || metadata.actor === filter.actor) &&
    (filter.organisation === undefined || metadata.organisation === filter.organisation) &&
    (filter.from === undefined || metadata.occurred_at >= filter.from) &&
    (filter.to === undefined || metadata.occurred_at <= filter.to)
  );
}

/** A module or an event type a filter names that no log of the catalog can hold. */
export interface UnknownFilterValue {
  filter: 'module' | 'type';
  value: string;
}

/** The values of a filter's `module` and `type` that the catalog's log cannot hold: they would match nothing. */
export function unknownFilterValues(
  filter: Pick<LogFilter, 'module' | 'type'>,
  catalog: SuiteCatalog,
): UnknownFilterValue[] {
  const types = new Set([...catalog.values()].flatMap((events) => [...events.keys()]));
  return [
    ...listOf(filter.module ?? [])
      .filter((module) => !catalog.has(module))
      .map((value) => ({ filter: 'module' as const, value })),
    ...listOf(filter.type ?? [])
      .filter((type) => !types.has(type))
      .map((value) => ({ filter: 'type' as const, value })),
  ];
}

/** Why a value is unknown, for a message. */
export function unknownValueMessage({ filter, value }: UnknownFilterValue, catalog: SuiteCatalog): string {
  return filter === 'module'
    ? `Unknown module ${value}; the log's modules are ${[...catalog.keys()].join(', ')}`
    : `Unknown event type ${value}: no module declares it`;
}
