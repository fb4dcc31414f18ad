import { z } from 'zod';
import { PROPOSALS_COLLECTION, proposalStream } from '../../approvals';
import { upcast, type SuiteCatalog } from '../../events/catalog';
import type { StoredEvent } from '../../events/envelope';
import type { EventStore } from '../../events/event-store';
import { withErasures } from '../../privacy/erasures-in-history';
import type { DocumentProjection } from '../../projections/projection';
import type { DocumentId, ReadStore } from '../../projections/read-store';
import { ApiError } from '../kit/errors';
import { parseItemId } from '../kit/reads';
import { shortened } from '../kit/validation';
import type { AuditRoute } from './services';

/** More proposals than any record gathers; the history shows the latest this many. */
const MOST_PROPOSALS = 500;

/**
 * A record's events, and every event of the proposals about it, in log order: those its changes were
 * applied in, and those that named it (`target`) and ended otherwise (rejected, expired, withdrawn,
 * failed, or still waiting), each with its people (`metadata.person`) and reason.
 */
async function withProposals(
  store: EventStore,
  readStore: ReadStore,
  events: readonly StoredEvent[],
  target: string,
): Promise<StoredEvent[]> {
  const filters = [{ field: 'target', op: 'eq' as const, value: target }];
  const named = await readStore.find(PROPOSALS_COLLECTION, { filters, limit: MOST_PROPOSALS, offset: 0 });
  const proposals = new Set([
    ...events.flatMap((event) => event.metadata.proposal_id ?? []),
    ...named.items.map((item) => (JSON.parse(item) as { id: string }).id),
  ]);
  const proposalEvents = await Promise.all([...proposals].map((id) => store.readStream(proposalStream(id))));
  return [...events, ...proposalEvents.flat()].sort((a, b) => a.position - b.position);
}

/** The document an event belongs to; none when the projection cannot tell (a parked event). */
function documentIdOf(
  catalog: SuiteCatalog,
  projection: DocumentProjection,
  event: StoredEvent,
): DocumentId | undefined {
  try {
    return projection.documentId(upcast(catalog, event));
  } catch {
    return undefined;
  }
}

/** Scans a module's events for those the projection maps to one document, in position order. */
async function eventsOfDocument(
  store: EventStore,
  catalog: SuiteCatalog,
  module: string,
  projection: DocumentProjection,
  id: DocumentId,
): Promise<StoredEvent[]> {
  const found: StoredEvent[] = [];
  for (let after = 0; ;) {
    const page = await store.queryLog({ module, after, limit: 2000 });
    if (page.length === 0) return found;
    for (const event of page) {
      if (!projection.handles.includes(event.type)) continue;
      if (String(documentIdOf(catalog, projection, event)) === String(id)) found.push(event);
    }
    after = (page[page.length - 1] as StoredEvent).position;
  }
}

const getHistory: AuditRoute = {
  method: 'get',
  path: '/api/v1/history/:module/:resource/:id',
  operation: 'getHistory',
  summary:
    'The events that shaped one record, each with the record as it was after it, and the erasures (`SubjectErased`) of the subjects whose personal data they hold',
  role: 'auditor',
  params: z.object({ module: z.string(), resource: z.string(), id: z.string() }),
  responses: {
    200: { description: 'History', schema: z.record(z.string(), z.unknown()) },
    404: { description: 'No such record' },
    422: { description: 'Invalid parameter' },
  },
  async handle({ params }, services) {
    const { auditEvents, storedEvents, catalog } = services;
    const module = services.modules.find((candidate) => candidate.id === params.module);
    const resource = module?.resources.find((candidate) => candidate.path === params.resource);
    // Read models served by a module's own routes (CLM contracts) are named `<module>.<path>`.
    const collection =
      resource?.collection ??
      module?.collections?.find((candidate) => candidate.name === `${params.module}.${params.resource}`);
    const projection = module?.projector.projections.find(
      (candidate) => candidate.collection === collection?.name,
    );
    if (!module || !collection || !projection) {
      throw new ApiError(
        'not_found',
        `No audited resource ${shortened(`${params.module}/${params.resource}`)}`,
      );
    }
    const id = parseItemId(module, { collection }, params.id as string);
    if (typeof id === 'object') throw new ApiError('validation_error', `id: ${id.msg}`, { issues: [id] });
    const events = resource?.stream
      ? await auditEvents.readStream(resource.stream(id))
      : await eventsOfDocument(auditEvents, catalog, module.id, projection, id);
    if (events.length === 0) {
      throw new ApiError(
        'not_found',
        `${resource?.name ?? shortened(params.resource as string)} ${shortened(params.id as string)} has no history`,
      );
    }
    let record: ReturnType<typeof projection.evolve> = null;
    // An event the projection cannot apply (a parked one) is shown with its error; the record stays.
    const target = `${module.id} ${params.resource as string}/${params.id as string}`;
    const told = await withErasures(
      storedEvents,
      await withProposals(auditEvents, services.readStore, events, target),
    );
    const steps = told.map((event) => {
      try {
        const current = upcast(catalog, event);
        if (projection.handles.includes(current.type)) record = projection.evolve(record, current);
        return { event, record };
      } catch (error) {
        return { event, record, error: error instanceof Error ? error.message : String(error) };
      }
    });
    return {
      status: 200,
      body: { data: { module: module.id, resource: params.resource, id, events: steps } },
    };
  },
};

/** Each record's history, event by event. */
export const historyRoutes = [getHistory];
