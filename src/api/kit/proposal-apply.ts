import { evolveStamped } from '../../projections/stamped-evolve';
import { setTimeout as sleep } from 'node:timers/promises';
import { decideProposal, proposalsProjection, type ProposalRecord } from '../../approvals';
import type { CommandContext } from '../../commands/context';
import { DomainError } from '../../commands/errors';
import type { StoredEvent } from '../../events/envelope';
import { ERASURES_COLLECTION } from '../../privacy/erasures';
import { personalPlaces, watchingPersonalData } from '../../privacy/personal-places';
import { subjectErased } from '../../privacy/subject-keys';
import { toApiError } from './errors';
import type { ModuleDefinition, ModuleSettings } from './module';
import { routeName, type ModuleServices } from '../../modules/module';
import type { FinishApproved } from '../../workers/approved-proposals';
import { validRouteBody } from './module-routes';
import { executeWrite, idempotencyClaim, requestCommandContext, type WriteAnswer } from './writes';

/** How often a write that fails with a fault of the suite is tried before its proposal ends `failed`. */
export const APPLY_ATTEMPTS = 4;
/** The wait before the second try; each further wait is four times longer (0.1 s, 0.4 s, 1.6 s). */
export const FIRST_RETRY_MS = 100;

/** The Idempotency-Key a proposal's write runs under: the write is applied once, whoever applies it. */
export const proposalWriteKey = (proposalId: string) => `proposal-${proposalId}`;

/**
 * Runs a held-back write as its proposer sent it, on the state of now: the audited write (or the
 * module's own route) with the proposal on its events' metadata, under an idempotency key of the
 * proposal, so that the write is applied once whoever applies it (the approving request, or the
 * follower after a crash). The approver's person (and employee) decides the domain's "approved by".
 */
async function applyWrite(
  module: ModuleDefinition,
  record: ProposalRecord,
  services: ModuleServices,
  settings: ModuleSettings,
  requestId: string,
): Promise<WriteAnswer> {
  const header = (name: string) =>
    name.toLowerCase() === 'idempotency-key' ? proposalWriteKey(record.id) : undefined;
  const approval = {
    proposal_id: record.id,
    proposed_by: record.proposed_by,
    approved_by: record.decided_by ?? '',
    ...(record.approver_person !== null && { approver_person: record.approver_person }),
    approver_employee: record.approver_employee,
  };
  const caller = { ...record.caller, approval };
  const request = { params: record.params, body: record.payload, header, requestId, caller };
  const write = module.writes.find((candidate) => routeName(candidate) === record.route);
  if (write) return executeWrite(module, write, services, request);
  const route = (module.routes ?? []).find(
    (candidate) => candidate.method !== 'get' && routeName(candidate) === record.route,
  );
  if (!route) throw new DomainError('not_found', `${module.id} no longer has the route ${record.route}`);
  const claim = idempotencyClaim(module, `proposal ${record.route}`, request);
  const previous = claim && (await services.eventStore.findIdempotency(claim.key));
  if (previous) {
    // Applied before a crash: its events are in the log; the route's answer was not kept.
    const events = await services.eventStore.readStream(previous.stream, { toRevision: previous.revision });
    const position = String(events[events.length - 1]?.position ?? 0);
    return { status: 200, headers: { 'X-Event-Position': position }, body: null };
  }
  const body = validRouteBody(route, record.payload);
  const commands = requestCommandContext(services, request, claim);
  const answer = await route.handle({ ...request, query: undefined, body, commands, settings }, services);
  if (answer === 'streamed' || 'text' in answer) {
    throw new Error(`${record.route} answers other than JSON: it cannot be held back`);
  }
  return { status: answer.status, headers: answer.headers ?? {}, body: answer.body };
}

/** A refusal of the write itself (a 4xx) fails the proposal; anything else is a fault of the suite. */
function refusalOf(error: unknown) {
  const apiError = toApiError(error);
  return apiError.code === 'internal_error' ? undefined : { code: apiError.code, message: apiError.message };
}

/** The fault a write kept failing with, as its proposal keeps it. */
function faultOf(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'internal_error',
    message: `The write failed ${APPLY_ATTEMPTS} times: ${message}`.slice(0, 1000),
  };
}

/** The subjects whose personal data the proposal's body holds that were erased since it was proposed. */
export async function erasedSubjectsOf(services: ModuleServices, record: ProposalRecord): Promise<string[]> {
  const subjects = [...new Set((record.personal_data ?? []).map(({ subject }) => subject))];
  const erased: string[] = [];
  for (const subject of subjects) {
    const filters = [{ field: 'subject', op: 'eq' as const, value: subject }];
    const { total } = await services.readStore.find(ERASURES_COLLECTION, { filters, limit: 1, offset: 0 });
    if (total > 0) erased.push(subject);
  }
  return erased;
}

/** How an approved proposal ended: its events, and the error of a failed one. */
export interface Finished {
  record: ProposalRecord;
  events: readonly StoredEvent[];
  error: { code: string; message: string } | null;
}

/**
 * Records the outcome of an approved proposal; when another process recorded it first, nothing
 * (the read model shows theirs).
 */
async function recordOutcome(
  context: CommandContext,
  record: ProposalRecord,
  command: Parameters<typeof decideProposal>[1],
): Promise<Finished> {
  try {
    const { outcome } = await decideProposal(context, command);
    const after = outcome.events.reduce<ProposalRecord | null>(
      (doc, event) => evolveStamped(proposalsProjection, doc, event),
      record,
    ) as ProposalRecord;
    return { record: after, events: outcome.events, error: after.error };
  } catch (error) {
    if (error instanceof DomainError && error.code === 'proposal_not_pending') {
      return { record, events: [], error: null };
    }
    throw error;
  }
}

/**
 * Finishes an approved proposal: applies its write, then records `ChangeApplied`, or `ChangeFailed`
 * when the write is refused on the state of now (a 4xx) or its body names a data subject erased since
 * it was proposed (`subject_erased`: nothing of it is written again). A fault of the suite (a 5xx) is retried
 * with back-off; after `APPLY_ATTEMPTS` the proposal fails with it. The write runs under the
 * proposal's idempotency key, so finishing a proposal twice (the approving request and the follower,
 * or again after a crash) applies it once.
 */
export async function finishApproved(
  module: ModuleDefinition,
  record: ProposalRecord,
  services: ModuleServices,
  settings: ModuleSettings,
  context: CommandContext,
  requestId: string,
): Promise<Finished> {
  const erased = await erasedSubjectsOf(services, record);
  if (erased.length > 0) {
    const { code, message } = subjectErased(erased);
    return recordOutcome(context, record, { type: 'RecordFailed', id: record.id, error: { code, message } });
  }
  for (let attempt = 1; ; attempt++) {
    // The write runs watched: its answer is kept with the personal values it read or appended sealed.
    const watched = watchingPersonalData(services.eventStore, module.events);
    let answer: WriteAnswer;
    try {
      answer = await applyWrite(
        module,
        record,
        { ...services, eventStore: watched.eventStore },
        settings,
        requestId,
      );
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal || attempt >= APPLY_ATTEMPTS) {
        const failure = refusal ?? faultOf(error);
        if (!refusal) services.logger.error({ err: error, proposal: record.id }, 'a proposal failed');
        return recordOutcome(context, record, { type: 'RecordFailed', id: record.id, error: failure });
      }
      await sleep(FIRST_RETRY_MS * 4 ** (attempt - 1));
      continue;
    }
    const position = Number(answer.headers['X-Event-Position'] ?? 0);
    return recordOutcome(context, record, {
      type: 'RecordApplied',
      id: record.id,
      result: answer.body,
      position,
      personalData: personalPlaces(answer.body, watched.values()),
    });
  }
}

/**
 * How the proposal follower finishes an approved proposal: as the approving request would, by its
 * module's write (a proposal of a module not served here is left alone), with the settings asked for
 * then (the server secret is resolved once there is a proposal to finish).
 */
export function finishingApproved(
  modules: readonly ModuleDefinition[],
  settingsOf: () => ModuleSettings,
): FinishApproved {
  return async (record, services, context) => {
    const module = modules.find((candidate) => candidate.id === record.module);
    if (!module) return;
    await finishApproved(module, record, services, settingsOf(), context, context.metadata().request_id);
  };
}
