import { isoTimestamp } from '../../clock';
import { scanAll } from '../../projections/read-all';
import { DUE_PAGE, type Expiring } from '../../workers/expiry-sweep';
import { checkRequestSla } from './handlers';

const REQUESTS = 'esm.requests';

/**
 * Requests whose SLA state the clock changed (`sla_changes_at` passed): the sweep records the targets
 * that became at risk (`RequestSlaAtRisk`) or were breached (`RequestSlaBreached`).
 */
export const slaSweep: Expiring = {
  name: 'esm-sla',
  collection: REQUESTS,
  async due(readStore, now) {
    const filters = [{ field: 'sla_changes_at', op: 'lte', value: isoTimestamp(now) } as const];
    const ids: string[] = [];
    for await (const { id } of scanAll(readStore, REQUESTS, { filters }, { pageSize: DUE_PAGE })) {
      ids.push(String(id));
    }
    return ids;
  },
  expire: (context, id) => checkRequestSla(context, Number(id), context.metadata().occurred_at),
};
