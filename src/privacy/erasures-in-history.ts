import type { StoredEvent } from '../events/envelope';
import type { EventStore } from '../events/event-store';
import { sealedKeyIds } from './personal-data';

const PAGE = 1_000;

/** The subjects whose personal data the events hold, as the log stores them (sealed, each naming its subject). */
async function subjectsIn(storedEvents: EventStore, events: readonly StoredEvent[]): Promise<Set<string>> {
  const subjects = new Set<string>();
  for (const { position } of events) {
    const stored = await storedEvents.eventAt(position);
    for (const subject of sealedKeyIds(stored?.data)?.keys() ?? []) subjects.add(subject);
  }
  return subjects;
}

/**
 * The events with the erasures (`SubjectErased`: when, by whom, why; no personal data) of the
 * subjects whose personal data they hold, in log order: a record's history shows where its data was
 * erased, so that "[erased]" is never read as "never set".
 */
export async function withErasures(
  storedEvents: EventStore,
  events: readonly StoredEvent[],
): Promise<StoredEvent[]> {
  const subjects = await subjectsIn(storedEvents, events);
  if (subjects.size === 0) return [...events];
  const erasures: StoredEvent[] = [];
  for (let after = 0; ;) {
    const page = await storedEvents.queryLog({
      module: 'privacy',
      type: 'SubjectErased',
      after,
      limit: PAGE,
    });
    erasures.push(...page.filter(({ data }) => subjects.has((data as { subject: string }).subject)));
    if (page.length < PAGE) break;
    after = (page.at(-1) as StoredEvent).position;
  }
  return [...events, ...erasures].sort((a, b) => a.position - b.position);
}
