import { evolveStamped } from '../../projections/stamped-evolve';
import {
  newProposalId,
  policyOf,
  presentProposal,
  propose,
  proposalsProjection,
  type ProposalRecord,
} from '../../approvals';
import { isoTimestamp } from '../../clock';
import type { StoredEvent } from '../../events/envelope';
import type { IdempotencyRecord } from '../../events/event-store';
import type { ReadStore } from '../../projections/read-store';
import { personalPlaces, watchingPersonalData } from '../../privacy/personal-places';
import { dryRun, type DryRun } from './dry-run';
import { ApiError } from './errors';
import type { Caller, ModuleDefinition } from './module';
import { idempotencyClaim, requestCommandContext, type WriteAnswer, type WriteServices } from './writes';

/** A write as the router received and checked it, before it runs: what a proposal keeps of it. */
export interface HeldWrite {
  module: ModuleDefinition;
  /** The route as the module's description names it (`PATCH /api/v1/leave/{id}`). */
  route: string;
  /** The path as requested. */
  path: string;
  params: Record<string, string>;
  body: unknown;
  caller: Caller;
  requestId: string;
  header(name: string): string | undefined;
}

export type ProposalServices = WriteServices & { readStore: ReadStore };

/** The header of a write as a dry run sees it: no Idempotency-Key, which would answer a replay. */
const withoutIdempotencyKey = (header: HeldWrite['header']) => (name: string) =>
  name.toLowerCase() === 'idempotency-key' ? undefined : header(name);

/** A proposal's answer: 202, where it is, and its position for a later read. */
function proposed(events: readonly StoredEvent[], replayed: boolean, now: Date): WriteAnswer {
  const record = events.reduce<ProposalRecord | null>(
    (doc, event) => evolveStamped(proposalsProjection, doc, event),
    null,
  );
  const last = events[events.length - 1] as StoredEvent;
  if (!record) throw new Error('A proposal answered without its events');
  return {
    status: 202,
    headers: {
      Location: `/api/v1/proposals/${record.id}`,
      'X-Event-Position': String(last.position),
      ...(replayed && { 'Idempotent-Replayed': 'true' }),
    },
    body: presentProposal(record, now),
  };
}

/** The first proposal of an `Idempotency-Key` again; 422 when the key came with another request. */
async function replayed(
  services: ProposalServices,
  previous: IdempotencyRecord,
  fingerprint: string,
  now: Date,
): Promise<WriteAnswer> {
  if (previous.fingerprint !== fingerprint) {
    throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request');
  }
  return proposed(await services.eventStore.readStream(previous.stream), true, now);
}

/**
 * Holds back a write whose route is under an approval policy: the write is checked exactly as it
 * would run (`check` runs it under a dry run: 400, 403, 404, 409, 422 as ever), then recorded as a
 * proposal instead of applied, and answered 202 with it. A write under no policy answers `undefined`
 * and runs as usual. A client's `Idempotency-Key` applies to the proposal: the same key and body
 * answer the same 202.
 */
export async function holdBackIfRequired(
  services: ProposalServices,
  write: HeldWrite,
  ttlSeconds: number,
  check: (dryRun: DryRun, header: HeldWrite['header'], caller: Caller) => Promise<unknown>,
): Promise<WriteAnswer | undefined> {
  const policy = await policyOf(services.readStore, write.module.id, write.route);
  if (!policy) return undefined;
  const now = services.clock.now();
  // A key of the proposal, not of the write: the write it holds back runs under a key of its own.
  const claim = idempotencyClaim(write.module, `proposal ${write.route}`, write);
  if (claim) {
    const previous = await services.eventStore.findIdempotency(claim.key);
    if (previous) return replayed(services, previous, claim.fingerprint, now);
  }
  // The write runs as it would, watched: the personal values it would read and seal are found in its
  // body, which the proposal keeps sealed the same way.
  const checking = dryRun(services);
  const watched = watchingPersonalData(checking.eventStore, write.module.events);
  try {
    await check({ ...checking, eventStore: watched.eventStore }, withoutIdempotencyKey(write.header), {
      ...write.caller,
      proposing: true,
    });
  } finally {
    checking.end();
  }
  const personalData = personalPlaces(write.body, watched.values());
  const { actor, actorName, scope, member, person } = write.caller;
  const { outcome } = await propose(requestCommandContext(services, write, claim), {
    id: newProposalId(now),
    module: write.module.id,
    route: write.route,
    path: write.path,
    params: write.params,
    payload: write.body,
    caller: {
      actor,
      ...(actorName !== undefined && { actorName }),
      ...(scope !== undefined && { scope }),
      ...(member !== undefined && { member }),
      ...(person !== undefined && { person }),
    },
    approver_role: policy.approver_role,
    expires_at: isoTimestamp(new Date(now.getTime() + ttlSeconds * 1000)),
    ...(personalData.length > 0 && { personal_data: personalData }),
  });
  // A concurrent request with the same key proposed first: its body must be this one, as on a write.
  if (outcome.duplicateOf && claim) return replayed(services, outcome.duplicateOf, claim.fingerprint, now);
  const last = outcome.events[outcome.events.length - 1] as StoredEvent;
  if (services.readYourWrites !== false) await services.runtime.waitFor(last.position);
  return proposed(outcome.events, false, now);
}
