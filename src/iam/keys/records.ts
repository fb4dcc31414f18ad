import type { EventStore } from '../../events/event-store';
import { keysProjection, type KeyRecord } from './projection';

const PAGE = 1_000;

/**
 * Every key's record as the read model holds it, folded from the log: current even while no suite
 * runs to project it (the CLI appends, it does not project).
 */
export async function keysInLog(eventStore: EventStore): Promise<KeyRecord[]> {
  const keys = new Map<string, KeyRecord>();
  for (let after = 0; ;) {
    const page = await eventStore.queryLog({ module: 'iam', after, limit: PAGE });
    for (const event of page) {
      if (!keysProjection.handles.includes(event.type)) continue;
      const id = keysProjection.documentId(event) as string;
      const record = keysProjection.evolve(keys.get(id) ?? null, event);
      if (record) keys.set(id, record);
    }
    const last = page[page.length - 1];
    if (!last || page.length < PAGE) return [...keys.values()];
    after = last.position;
  }
}
