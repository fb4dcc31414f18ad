import { z } from 'zod';
import {
  PROPOSAL_ID,
  PROPOSALS_COLLECTION,
  decideProposal,
  presentProposal,
  proposalsProjection,
  type ProposalRecord,
} from '../../approvals';
import { DomainError } from '../../commands/errors';
import type { StoredEvent } from '../../events/envelope';
import { holds } from '../../iam/holds';
import { ERASURES_COLLECTION } from '../../privacy/erasures';
import { personalPlaces, watchingPersonalData } from '../../privacy/personal-places';
import { subjectErased } from '../../privacy/subject-keys';
import type { Role } from '../../iam/principal';
import { ApiError, toApiError } from './errors';
import { requireRole } from './identity';
import {
  routeName,
  type Caller,
  type ModuleDefinition,
  type ModuleRoute,
  type RouteServices,
  type ModuleSettings,
} from './module';
import { validRouteBody } from './module-routes';
import { ErrorEnvelopeSchema } from './openapi';
import { ProposalSchema } from './proposal-schema';
import { integerParameter } from './validation';
import { executeWrite, requestCommandContext, type WriteAnswer } from './writes';

const STATUSES = ['pending', 'applied', 'rejected', 'failed', 'expired', 'approved'] as const;

/** The writer or approver of the module may see its proposals, and whoever holds `admin`. */
function requireProposalReader(module: ModuleDefinition, caller: Caller): void {
  const roles: Role[] = [`${module.id}:writer`, `${module.id}:approver`];
  if (
    caller.principal &&
    roles.some((role) => holds(caller.principal as NonNullable<Caller['principal']>, role))
  )
    return;
  throw new ApiError('forbidden', `This needs the role ${roles.join(' or ')}`, { required_roles: roles });
}

/** A proposal of this module the caller may see (of their workspace, in a scoped module), or 404. */
async function proposalOf(module: ModuleDefinition, services: RouteServices, caller: Caller, id: string) {
  const stored = PROPOSAL_ID.test(id) ? await services.readStore.get(PROPOSALS_COLLECTION, id) : null;
  const record = stored === null ? null : (JSON.parse(stored) as ProposalRecord);
  if (!record || record.module !== module.id || (record.scope ?? undefined) !== caller.scope) {
    throw new ApiError('not_found', 'No such proposal');
  }
  return record;
}

/** The proposal after the events a decision appended, as answered; with the position of the last. */
async function decided(services: RouteServices, record: ProposalRecord, events: readonly StoredEvent[]) {
  const after = events.reduce<ProposalRecord | null>(
    (doc, event) => proposalsProjection.evolve(doc, event),
    record,
  );
  const last = events[events.length - 1];
  if (last) await services.runtime.waitFor(last.position);
  const headers: Record<string, string> = last ? { 'X-Event-Position': String(last.position) } : {};
  return { body: presentProposal(after as ProposalRecord, services.clock.now()), headers };
}

/**
 * Runs a held-back write as its proposer sent it, on the state of now: the audited write (or the
 * module's own route) with the proposal on its events' metadata, under an idempotency key of the
 * proposal, so that the write is applied once whatever happens to the proposal's own events. The
 * approval, the write and its outcome are single-stream appends in turn: a crash between them leaves
 * the proposal `approved`, a status of its own that no reader takes for applied or failed.
 */
async function applyWrite(
  module: ModuleDefinition,
  record: ProposalRecord,
  services: RouteServices,
  settings: ModuleSettings,
  approvedBy: string,
  requestId: string,
): Promise<WriteAnswer> {
  const header = (name: string) =>
    name.toLowerCase() === 'idempotency-key' ? `proposal-${record.id}` : undefined;
  const approval = { proposal_id: record.id, proposed_by: record.proposed_by, approved_by: approvedBy };
  const caller = { ...record.caller, approval };
  const request = { params: record.params, body: record.payload, header, requestId, caller };
  const write = module.writes.find((candidate) => routeName(candidate) === record.route);
  if (write) return executeWrite(module, write, services, request);
  const route = (module.routes ?? []).find(
    (candidate) => candidate.method !== 'get' && routeName(candidate) === record.route,
  );
  if (!route) throw new ApiError('not_found', `${module.id} no longer has the route ${record.route}`);
  const body = validRouteBody(route, record.payload);
  const commands = requestCommandContext(services, request);
  const answer = await route.handle({ ...request, query: undefined, body, commands, settings }, services);
  if (answer === 'streamed') throw new Error(`${record.route} streamed its answer: it cannot be held back`);
  return { status: answer.status, headers: answer.headers ?? {}, body: answer.body };
}

/** A refusal of the write itself (a 4xx) fails the proposal; anything else is a fault of the suite. */
const refusalOf = (error: unknown) => {
  const apiError = toApiError(error);
  return apiError.code === 'internal_error' ? undefined : { code: apiError.code, message: apiError.message };
};

/**
 * The proposal routes every module serves: list and read (its writers and approvers), approve (its
 * policy's approver role, someone other than the proposer: 403 `self_approval` first), reject.
 */
export function proposalRoutes(module: ModuleDefinition): ModuleRoute[] {
  const auth = module.access ? 'module' : 'bearer';
  const tags = ['proposals'];
  const params = z.object({ id: z.string() });
  const envelope = (description: string) => ({ description, schema: ErrorEnvelopeSchema });
  const notReader = envelope('Neither a writer nor an approver of the module');

  const list: ModuleRoute<{ status?: (typeof STATUSES)[number]; limit?: number; offset?: number }> = {
    method: 'get',
    path: '/api/v1/proposals',
    operation: 'listProposals',
    summary: `Writes held back for approval (the module's writers and approvers, or admin)`,
    tags,
    auth,
    role: null,
    query: z.strictObject({
      status: z.enum(STATUSES).optional(),
      limit: integerParameter({ min: 1, max: module.list.maxLimit }).optional(),
      offset: integerParameter({ min: 0 }).optional(),
    }),
    responses: {
      200: {
        description: 'A page of proposals',
        schema: z.object({
          data: z.array(ProposalSchema),
          meta: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
        }),
      },
      403: notReader,
    },
    async handle({ query, caller }, services) {
      requireProposalReader(module, caller);
      const { status, limit = module.list.defaultLimit, offset = 0 } = query;
      const filters = [
        { field: 'module', op: 'eq' as const, value: module.id },
        ...(caller.scope !== undefined ? [{ field: 'scope', op: 'eq' as const, value: caller.scope }] : []),
        ...(status ? [{ field: 'status', op: 'eq' as const, value: status }] : []),
      ];
      const page = await services.readStore.find(PROPOSALS_COLLECTION, { filters, limit, offset });
      const now = services.clock.now();
      const data = page.items.map((item) => presentProposal(JSON.parse(item) as ProposalRecord, now));
      return { status: 200, body: { data, meta: { total: page.total, limit, offset } } };
    },
  };

  const get: ModuleRoute = {
    method: 'get',
    path: '/api/v1/proposals/:id',
    operation: 'getProposal',
    summary: 'One proposal',
    tags,
    auth,
    role: null,
    params,
    responses: {
      200: { description: 'The proposal', schema: ProposalSchema },
      403: notReader,
      404: envelope('No such proposal'),
    },
    async handle({ params: { id }, caller }, services) {
      requireProposalReader(module, caller);
      const record = await proposalOf(module, services, caller, id as string);
      return { status: 200, body: presentProposal(record, services.clock.now()) };
    },
  };

  const approve: ModuleRoute = {
    method: 'post',
    path: '/api/v1/proposals/:id/approve',
    operation: 'approveProposal',
    summary: 'Approve a proposal: its write runs on the state of now (the approver role; not the proposer)',
    tags,
    auth,
    role: null,
    proposable: false,
    params,
    responses: {
      200: { description: 'Applied: the proposal with the resulting record', schema: ProposalSchema },
      403: envelope('The proposer (`self_approval`), or a principal without the approver role'),
      404: envelope('No such proposal'),
      409: envelope(
        'Decided or expired already, the write was refused on the state of now (`proposal_failed`), or ' +
          'its data names a data subject erased since it was proposed (`subject_erased`; the proposal fails)',
      ),
    },
    async handle({ params: { id }, caller, requestId, header, settings }, services) {
      const record = await proposalOf(module, services, caller, id as string);
      if (caller.actor === record.proposed_by) {
        throw new ApiError('self_approval', 'A proposal is approved by someone other than its proposer');
      }
      requirePrincipalRole(caller, record.approver_role);
      const context = requestCommandContext(services, { caller, requestId, header });
      const now = services.clock.now();
      await decideOrExpire(context, record.id, {
        type: 'Approve',
        id: record.id,
        approvedBy: caller.actor,
        at: now,
      });
      const approved = { ...record, status: 'approved' as const, decided_by: caller.actor };
      const fail = async (refusal: { code: string; message: string }) => {
        const { outcome } = await decideProposal(context, {
          type: 'RecordFailed',
          id: record.id,
          error: refusal,
        });
        return (await decided(services, approved, outcome.events)).body;
      };
      const erased = await erasedSubjectsOf(services, record);
      if (erased.length > 0) {
        const refusal = subjectErased(erased);
        const proposal = await fail({ code: refusal.code, message: refusal.message });
        throw new ApiError('subject_erased', refusal.message, { subjects: erased, proposal });
      }
      // The write runs watched: its answer is kept with the personal values it read or appended sealed.
      const watched = watchingPersonalData(services.eventStore, module.events);
      let answer: WriteAnswer;
      try {
        answer = await applyWrite(
          module,
          approved,
          { ...services, eventStore: watched.eventStore },
          settings,
          caller.actor,
          requestId,
        );
      } catch (error) {
        const refusal = refusalOf(error);
        if (!refusal) throw error;
        const proposal = await fail(refusal);
        if (refusal.code === 'subject_erased') {
          throw new ApiError('subject_erased', refusal.message, { proposal });
        }
        throw new ApiError('proposal_failed', `The write was refused: ${refusal.message}`, { proposal });
      }
      const position = Number(answer.headers['X-Event-Position'] ?? 0);
      const { outcome } = await decideProposal(context, {
        type: 'RecordApplied',
        id: record.id,
        result: answer.body,
        position,
        personalData: personalPlaces(answer.body, watched.values()),
      });
      return { status: 200, ...(await decided(services, approved, outcome.events)) };
    },
  };

  const reject: ModuleRoute<unknown, { reason: string }> = {
    method: 'post',
    path: '/api/v1/proposals/:id/reject',
    operation: 'rejectProposal',
    summary: 'Reject a proposal, with a reason (the approver role)',
    tags,
    auth,
    role: null,
    proposable: false,
    params,
    body: z.strictObject({ reason: z.string().trim().min(1).max(1000) }).meta({ id: 'Rejection' }),
    responses: {
      200: { description: 'Rejected: the proposal', schema: ProposalSchema },
      403: envelope('A principal without the approver role'),
      404: envelope('No such proposal'),
      409: envelope('Decided or expired already'),
    },
    async handle({ params: { id }, body, caller, requestId, header }, services) {
      const record = await proposalOf(module, services, caller, id as string);
      requirePrincipalRole(caller, record.approver_role);
      const context = requestCommandContext(services, { caller, requestId, header });
      const command = {
        type: 'Reject' as const,
        id: record.id,
        rejectedBy: caller.actor,
        reason: body.reason,
        at: services.clock.now(),
      };
      const { outcome } = await decideOrExpire(context, record.id, command);
      return { status: 200, ...(await decided(services, record, outcome.events)) };
    },
  };

  return [list, get, approve, reject] as ModuleRoute[];
}

/** The subjects whose personal data the proposal's body holds that were erased since it was proposed. */
async function erasedSubjectsOf(services: RouteServices, record: ProposalRecord): Promise<string[]> {
  const subjects = [...new Set((record.personal_data ?? []).map(({ subject }) => subject))];
  const erased: string[] = [];
  for (const subject of subjects) {
    const filters = [{ field: 'subject', op: 'eq' as const, value: subject }];
    const { total } = await services.readStore.find(ERASURES_COLLECTION, { filters, limit: 1, offset: 0 });
    if (total > 0) erased.push(subject);
  }
  return erased;
}

function requirePrincipalRole(caller: Caller, role: Role): void {
  if (!caller.principal)
    throw new ApiError('forbidden', `This needs the role ${role}`, { required_role: role });
  requireRole(caller.principal, role);
}

/** Decides on a proposal; one found past its expiry is recorded as expired, and answered 409. */
async function decideOrExpire(
  context: Parameters<typeof decideProposal>[0],
  id: string,
  command: Parameters<typeof decideProposal>[1],
) {
  try {
    return await decideProposal(context, command);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'proposal_expired') {
      await decideProposal(context, { type: 'Expire', id, at: context.clock.now() });
    }
    throw error;
  }
}
