import { evolveStamped } from '../../projections/stamped-evolve';
import { z } from 'zod';
import {
  PROPOSAL_ID,
  PROPOSALS_COLLECTION,
  decideProposal,
  policyOf,
  presentProposal,
  proposalsCollection,
  proposalsProjection,
  proposerGone,
  type ProposalRecord,
} from '../../approvals';
import type { CommandContext } from '../../commands/context';
import { DomainError } from '../../commands/errors';
import { linkedEmployee } from '../../iam/employee-link';
import type { StoredEvent } from '../../events/envelope';
import { holds } from '../../iam/holds';
import type { Role } from '../../iam/principal';
import { ApiError } from './errors';
import { requireRole } from './identity';
import type { Caller, ModuleDefinition, ModuleRoute } from './module';
import type { ModuleServices } from '../../modules/module';
import { orderParameters, PageMeta, routeOrder } from './list-order';
import { ErrorEnvelopeSchema } from './openapi';
import { ProposalInContext, proposalsInContext } from './proposal-context';
import { ProposalSchema } from './proposal-schema';
import { integerParameter } from './validation';
import { erasedSubjectsOf, finishApproved } from './proposal-apply';
import { requestCommandContext } from './writes';

const STATUSES = ['pending', 'applied', 'rejected', 'failed', 'expired', 'approved', 'withdrawn'] as const;

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
async function proposalOf(module: ModuleDefinition, services: ModuleServices, caller: Caller, id: string) {
  const stored = PROPOSAL_ID.test(id) ? await services.readStore.get(PROPOSALS_COLLECTION, id) : null;
  const record = stored === null ? null : (JSON.parse(stored) as ProposalRecord);
  if (!record || record.module !== module.id || (record.scope ?? undefined) !== caller.scope) {
    throw new ApiError('not_found', 'No such proposal');
  }
  return record;
}

/** The proposal after the events a decision appended, as answered; with the position of the last. */
async function decided(services: ModuleServices, record: ProposalRecord, events: readonly StoredEvent[]) {
  const after = events.reduce<ProposalRecord | null>(
    (doc, event) => evolveStamped(proposalsProjection, doc, event),
    record,
  );
  const last = events[events.length - 1];
  if (last) await services.runtime.waitFor(last.position);
  const headers: Record<string, string> = last ? { 'X-Event-Position': String(last.position) } : {};
  return { body: presentProposal(after as ProposalRecord, services.clock.now()), headers };
}

/** The proposal as the read models show it once they show every event appended so far. */
async function current(services: ModuleServices, record: ProposalRecord): Promise<ProposalRecord> {
  await services.runtime.waitFor(await services.eventStore.headPosition());
  const stored = await services.readStore.get(PROPOSALS_COLLECTION, record.id);
  return stored === null ? record : (JSON.parse(stored) as ProposalRecord);
}

/** The person a caller is: their principal's, else (a session's user) their actor. */
const personOf = (caller: Caller): string => caller.person ?? caller.actor;

/** 403 `self_approval` for any credential of the proposer's person. */
function refuseProposer(caller: Caller, record: ProposalRecord): void {
  if (caller.actor === record.proposed_by || personOf(caller) === record.proposer_person) {
    throw new ApiError('self_approval', 'A proposal is approved by someone other than its proposer', {
      person: record.proposer_person,
    });
  }
}

/**
 * The rules of the moment of deciding: the proposer's key must still be valid (a pending proposal
 * whose proposer's key was revoked or expired is withdrawn, and answered 409 `proposal_withdrawn`),
 * and the caller must hold the role the policy requires now (the proposal's own when the policy was
 * cleared since).
 */
async function requireStandingNow(
  module: ModuleDefinition,
  services: ModuleServices,
  context: CommandContext,
  caller: Caller,
  record: ProposalRecord,
): Promise<void> {
  const gone =
    record.status === 'pending'
      ? await proposerGone(services.readStore, record.caller.actor, services.clock.now())
      : null;
  if (gone) {
    await decideProposal(context, { type: 'Withdraw', id: record.id, reason: gone });
    throw new ApiError('proposal_withdrawn', `The proposal was withdrawn: ${gone}`, { reason: gone });
  }
  const policy = await policyOf(services.readStore, module.id, record.route);
  requirePrincipalRole(caller, policy?.approver_role ?? record.approver_role);
}

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
      ...orderParameters(proposalsCollection),
    }),
    responses: {
      200: {
        description:
          'A page of proposals, each with its context: the proposer by name, the record, a preview, its age, its conflicts. The pending count: `status=pending&limit=1`, meta.total',
        schema: z.object({
          data: z.array(ProposalInContext),
          meta: PageMeta,
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
      const order = routeOrder(proposalsCollection, query);
      const page = await services.readStore.find(PROPOSALS_COLLECTION, { filters, limit, offset, ...order });
      const records = page.items.map((item) => JSON.parse(item) as ProposalRecord);
      const data = await proposalsInContext(module, services.readStore, records, services.clock.now());
      return { status: 200, body: { data, meta: { total: page.total, limit, offset, next: page.next } } };
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
      200: { description: 'The proposal, with its context', schema: ProposalInContext },
      403: notReader,
      404: envelope('No such proposal'),
    },
    async handle({ params: { id }, caller }, services) {
      requireProposalReader(module, caller);
      const record = await proposalOf(module, services, caller, id as string);
      const [answer] = await proposalsInContext(module, services.readStore, [record], services.clock.now());
      return { status: 200, body: answer };
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
      403: envelope(
        "Any credential of the proposer's person (`self_approval`), or a principal without the role the policy requires now",
      ),
      404: envelope('No such proposal'),
      409: envelope(
        "Decided, expired or withdrawn already (`proposal_withdrawn`: the proposer's key ended), the write was refused on the state of now (`proposal_failed`), or its data names a data subject erased since it was proposed (`subject_erased`; the proposal fails)",
      ),
    },
    async handle({ params: { id }, caller, requestId, header, settings }, services) {
      const record = await proposalOf(module, services, caller, id as string);
      refuseProposer(caller, record);
      const context = requestCommandContext(services, { caller, requestId, header });
      await requireStandingNow(module, services, context, caller, record);
      const approverEmployee = caller.principal
        ? await linkedEmployee(services.readStore, caller.principal)
        : null;
      const { outcome } = await decideOrExpire(context, record.id, {
        type: 'Approve',
        id: record.id,
        approvedBy: caller.actor,
        approverPerson: personOf(caller),
        approverEmployee,
        at: services.clock.now(),
      });
      const approved = outcome.events.reduce<ProposalRecord | null>(
        (doc, event) => evolveStamped(proposalsProjection, doc, event),
        record,
      ) as ProposalRecord;
      const finished = await finishApproved(module, approved, services, settings, context, requestId);
      // Another process (the follower) recorded the outcome first: answer theirs.
      const ended = finished.events.length > 0 ? finished.record : await current(services, finished.record);
      const answer = await decided(services, ended, finished.events);
      if (ended.error?.code === 'subject_erased') {
        const subjects = await erasedSubjectsOf(services, ended);
        throw new ApiError('subject_erased', ended.error.message, { subjects, proposal: answer.body });
      }
      if (ended.error) {
        throw new ApiError('proposal_failed', `The write was refused: ${ended.error.message}`, {
          proposal: answer.body,
        });
      }
      return { status: 200, ...answer };
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
      403: envelope('A principal without the role the policy requires now'),
      404: envelope('No such proposal'),
      409: envelope('Decided, expired or withdrawn already'),
    },
    async handle({ params: { id }, body, caller, requestId, header }, services) {
      const record = await proposalOf(module, services, caller, id as string);
      const context = requestCommandContext(services, { caller, requestId, header });
      await requireStandingNow(module, services, context, caller, record);
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
