import { z } from 'zod';
import { foldedSteps, recordStory } from '../../audit/record-history';
import { STATUS_AFTER } from '../../approvals/proposals/decider';
import type { StoredEvent } from '../../events/envelope';
import { holds } from '../../iam/holds';
import type { Principal, Role } from '../../iam/principal';
import type { Document } from '../../projections/read-store';
import type { ModuleServices } from '../../modules/module';
import { timestamp } from '../../projections/fields';
import { actorName } from './actor-name';
import { modulePrincipalCheck } from './auth';
import { ApiError } from './errors';
import type { Caller, ModuleDefinition, ModuleRoute, ModuleSettings, ResourceDefinition } from './module';
import { ErrorEnvelopeSchema, pascalCase } from './openapi';
import { pageParameters, pathId } from './parameters';
import { moduleRecord } from './time-travel';
import { shortened } from './validation';

/**
 * A record's activity: what happened to it, newest first, for whoever may read it: its events as
 * field changes (the record folded by its projection before and after each), its comments, the
 * proposals about it and the erasures of personal data it holds. The events are read opened, so an
 * erased value reads as erased in every entry, before and after.
 */

const ACTIVITY_KINDS = ['created', 'changed', 'comment', 'proposal', 'erasure'] as const;
type ActivityKind = (typeof ACTIVITY_KINDS)[number];

const FieldChange = z
  .object({ field: z.string(), before: z.unknown(), after: z.unknown() })
  .meta({ id: 'FieldChange' });
type FieldChange = z.infer<typeof FieldChange>;

export const ActivityEntry = z
  .object({
    occurred_at: timestamp,
    position: z.number().int().meta({ description: 'The log position of the event' }),
    actor: z.string().meta({
      description: 'Who did it: the name of the credential, user or job; never a key id or secret',
    }),
    kind: z.string().meta({ enum: [...ACTIVITY_KINDS] }),
    summary: z.string(),
    changes: z.array(FieldChange).meta({
      description: 'The fields the event changed, or a proposal would change (staff only), before and after',
    }),
    comment: z
      .object({ body: z.string().nullable(), visibility: z.string() })
      .nullable()
      .meta({ description: 'A comment\u2019s text and visibility (kind comment)' }),
    proposal: z
      .object({ id: z.string(), route: z.string(), status: z.string() })
      .nullable()
      .meta({ description: 'The proposal an entry of kind proposal is about, and what it became by then' }),
  })
  .meta({ id: 'ActivityEntry' });
export type ActivityEntry = z.infer<typeof ActivityEntry>;

/** The record times, which every event moves: not a change of the record's own. */
const STAMPS = ['created_at', 'updated_at'];

function fieldChanges(
  resource: ResourceDefinition,
  before: Document | null,
  after: Document | null,
): FieldChange[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const left = new Set([...STAMPS, ...(resource.derived ?? [])]);
  return [...fields]
    .filter((field) => !left.has(field))
    .filter((field) => JSON.stringify(before?.[field] ?? null) !== JSON.stringify(after?.[field] ?? null))
    .map((field) => ({ field, before: before?.[field] ?? null, after: after?.[field] ?? null }));
}

/** Words of event types that people write in capitals. */
const ACRONYMS = new Set(['sla', 'url', 'okr', 'kpi']);

/** `RequestPriorityChanged`: "Request priority changed"; `RequestSlaBreached`: "Request SLA breached". */
const sentence = (type: string) => {
  const words = type
    .split(/(?=[A-Z])/)
    .map((word) => (ACRONYMS.has(word.toLowerCase()) ? word.toUpperCase() : word.toLowerCase()));
  return [(words[0] ?? '').replace(/^./, (first) => first.toUpperCase()), ...words.slice(1)].join(' ');
};

const PROPOSAL_SUMMARIES: Readonly<Record<string, (data: Record<string, unknown>) => string>> = {
  ChangeProposed: (data) => `Proposed ${String(data.route)}, awaiting approval`,
  ChangeApproved: () => 'Approved the proposal',
  ChangeApplied: () => 'The approved change was applied',
  ChangeFailed: () => 'The approved change was refused when applied',
  ChangeRejected: (data) => `Rejected the proposal: ${String(data.reason)}`,
  ChangeExpired: () => 'The proposal expired',
  ChangeWithdrawn: () => 'The proposal was withdrawn',
};

/** What the entries of one record are made with. */
interface Telling {
  resource: ResourceDefinition;
  /** The caller writes or approves in the module: they see internal comments and proposed values. */
  staff: boolean;
}

/** The proposal's route, by its id: the events after its proposal do not repeat it. */
type ProposalRoutes = Map<string, string>;

function entryOf(
  event: StoredEvent,
  before: Document | null,
  after: Document | null,
  { resource, staff }: Telling,
  routes: ProposalRoutes,
): ActivityEntry | null {
  const data = event.data as Record<string, unknown>;
  const base = {
    occurred_at: event.metadata.occurred_at,
    position: event.position,
    actor: actorName(event.metadata.actor, event.metadata.actor_name),
    changes: [] as FieldChange[],
    comment: null,
    proposal: null,
  };
  const entry = (kind: ActivityKind, summary: string, more: Partial<ActivityEntry> = {}) => ({
    ...base,
    kind,
    summary,
    ...more,
  });
  if (event.type === 'SubjectErased') return entry('erasure', 'Personal data erased');
  const proposalStatus = (STATUS_AFTER as Readonly<Record<string, string>>)[event.type];
  if (proposalStatus !== undefined && typeof data.id === 'string') {
    if (event.type === 'ChangeProposed') routes.set(data.id, String(data.route));
    const summary = (PROPOSAL_SUMMARIES[event.type] as (data: Record<string, unknown>) => string)(data);
    const payload = data.payload as Record<string, unknown> | null;
    const proposed =
      staff && event.type === 'ChangeProposed' && payload && typeof payload === 'object' && before
        ? Object.keys(payload)
            .filter((field) => field in before)
            .map((field) => ({ field, before: before[field], after: payload[field] }))
        : [];
    const proposal = { id: data.id, route: routes.get(data.id) ?? '', status: proposalStatus };
    return entry('proposal', summary, { changes: proposed, proposal });
  }
  if (event.type === resource.comments) {
    const visibility = String(data.visibility);
    if (visibility === 'internal' && !staff) return null;
    const body = (data.body as string | null) ?? null;
    const summary = visibility === 'internal' ? 'Added an internal note' : 'Replied';
    return entry('comment', summary, {
      comment: { body, visibility },
      changes: fieldChanges(resource, before, after),
    });
  }
  const kind = before === null ? 'created' : 'changed';
  return entry(kind, sentence(event.type), { changes: fieldChanges(resource, before, after) });
}

/** The record's activity, newest first; null when it has none (no such record). */
export async function recordActivity(
  module: ModuleDefinition,
  resource: ResourceDefinition,
  services: Pick<ModuleServices, 'eventStore' | 'storedEvents' | 'readStore' | 'catalog'>,
  id: string | number,
  staff: boolean,
): Promise<ActivityEntry[] | null> {
  const record = moduleRecord(module, resource.collection.name, id, resource);
  const story = await recordStory({ ...services, events: services.eventStore }, record);
  if (story.length === 0) return null;
  const steps = foldedSteps(services.catalog, record.projection, story);
  const routes: ProposalRoutes = new Map();
  const entries = steps.flatMap((step, index) => {
    const before = index === 0 ? null : (steps[index - 1]?.record ?? null);
    return entryOf(step.event, before, step.record, { resource, staff }, routes) ?? [];
  });
  return entries.reverse();
}

/** Whether the caller writes or approves in the module; a public read's caller is asked for their credential. */
async function isStaff(
  module: ModuleDefinition,
  caller: Caller,
  authorization: string | undefined,
  settings: ModuleSettings,
): Promise<boolean> {
  const roles: Role[] = [`${module.id}:writer`, `${module.id}:approver`];
  let principal: Principal | undefined = caller.principal;
  if (!principal && !module.access && authorization !== undefined) {
    principal = await modulePrincipalCheck(settings)(authorization);
  }
  return principal !== undefined && roles.some((role) => holds(principal, role));
}

const ActivityQuery = (module: ModuleDefinition) => z.object(pageParameters(module.list));
type ActivityQuery = { limit?: number; offset?: number };

/**
 * `GET /api/v1/<path>/{id}/activity` for each resource whose records have a stream of their own: on
 * the module's read access (its scope too), newest first, paged.
 */
export function activityRoutes(module: ModuleDefinition): ModuleRoute[] {
  const ownStream = (resource: ResourceDefinition) =>
    module.projector.projections.some(
      (projection) => projection.collection === resource.collection.name && projection.stream,
    );
  return module.resources.filter(ownStream).map((resource): ModuleRoute<ActivityQuery> => {
    const itemParam = module.itemParam;
    return {
      method: 'get',
      path: `/api/v1/${resource.path}/:${itemParam}/activity`,
      operation: `get${pascalCase(resource.name)}Activity`,
      summary: `What happened to one ${resource.name.toLowerCase()}, newest first: changes (before and after), comments, proposals and erasures (for whoever may read it; internal notes and proposed values for the module's writers and approvers)`,
      tags: [resource.path],
      params: z.object({
        [itemParam]: resource.collection.idKind === 'integer' ? z.int().positive() : z.string(),
      }),
      query: ActivityQuery(module),
      responses: {
        200: {
          description: 'A page of entries',
          schema: z
            .object({
              data: z.array(ActivityEntry),
              meta: z.object({
                total: z.number().int(),
                limit: z.number().int(),
                offset: z.number().int(),
              }),
            })
            .meta({ id: `${(resource.record.meta()?.id as string | undefined) ?? resource.name}Activity` }),
        },
        404: { description: `No such ${resource.name.toLowerCase()}`, schema: ErrorEnvelopeSchema },
        422: { description: 'Invalid parameter' },
      },
      async handle({ params, query, caller, header, settings }, services) {
        const raw = params[itemParam] as string;
        const id = resource.collection.idKind === 'integer' ? pathId(params, itemParam) : raw;
        const notFound = new ApiError('not_found', `${resource.name} ${shortened(raw)} not found`);
        const current = await services.readStore.get(resource.collection.name, id);
        const doc = current === null ? null : (JSON.parse(current) as Document);
        if (!doc || (resource.scopeField && doc[resource.scopeField] !== (caller.scope ?? null))) {
          throw notFound;
        }
        const staff = await isStaff(module, caller, header('authorization'), settings);
        const entries = (await recordActivity(module, resource, services, id, staff)) ?? [];
        const limit = query.limit ?? module.list.defaultLimit;
        const offset = query.offset ?? 0;
        const data = entries.slice(offset, offset + limit);
        return { status: 200, body: { data, meta: { total: entries.length, limit, offset } } };
      },
    };
  }) as ModuleRoute[];
}
