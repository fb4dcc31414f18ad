import type { EventStore } from '../../events/event-store';
import { documentsInLog } from '../../projections/documents-in-log';
import { policiesProjection, type PolicyRecord } from './projection';

/** Every policy, folded from the log (see `documentsInLog`), ordered by module, then route. */
export async function policiesInLog(eventStore: EventStore): Promise<PolicyRecord[]> {
  const policies = await documentsInLog(eventStore, 'approvals', policiesProjection);
  return [...policies.values()].sort(byId);
}

const byId = (a: PolicyRecord, b: PolicyRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
