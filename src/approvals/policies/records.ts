import type { EventStore } from '../../events/event-store';
import { policiesProjection, type PolicyRecord } from './projection';

const PAGE = 1_000;

/**
 * Every policy as the read model holds it, folded from the log: current even while no suite runs to
 * project it (the CLI appends, it does not project). Ordered by module, then route.
 */
export async function policiesInLog(eventStore: EventStore): Promise<PolicyRecord[]> {
  const policies = new Map<string, PolicyRecord>();
  for (let after = 0; ;) {
    const page = await eventStore.queryLog({ module: 'approvals', after, limit: PAGE });
    for (const event of page) {
      if (!policiesProjection.handles.includes(event.type)) continue;
      const id = policiesProjection.documentId(event) as string;
      const record = policiesProjection.evolve(policies.get(id) ?? null, event);
      if (record) policies.set(id, record);
      else policies.delete(id);
    }
    const last = page[page.length - 1];
    if (!last || page.length < PAGE) return [...policies.values()].sort(byId);
    after = last.position;
  }
}

const byId = (a: PolicyRecord, b: PolicyRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
