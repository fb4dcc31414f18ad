import { evolveStamped } from '../../projections/stamped-evolve';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { isoTimestamp, type Clock } from '../../clock';
import type { CommandContext } from '../../commands/context';
import type { IdAllocator } from '../../commands/ids';
import type { StoredEvent } from '../../events/envelope';
import { eventIdsFrom, newEventId } from '../../events/event-ids';
import type { EventStore, IdempotencyClaim, IdempotencyRecord } from '../../events/event-store';
import type { DocumentProjection } from '../../projections/projection';
import type { ReadStore } from '../../projections/read-store';
import type { ProjectionProgress } from '../../projections/runtime';
import { ApiError, validated } from './errors';
import { clientToken } from './logging';
import type { Caller, ModuleDefinition, WriteRoute } from './module';
import { withNames } from './record-names';

export interface WriteServices {
  eventStore: EventStore;
  /** Reads the names a record's answer carries (`names`). */
  readStore: Pick<ReadStore, 'loadTexts'>;
  runtime: ProjectionProgress;
  ids: IdAllocator;
  clock: Clock;
  /**
   * Answer a write once the read models show it (the embedded profile). In the distributed profile
   * the api role answers at once, with `X-Event-Position` for a later read's `X-Min-Position`.
   */
  readYourWrites?: boolean;
}

/** Largest accepted JSON body (express's default); larger ones are answered 413. */
export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** A write as the kit sees it, whatever server received it. */
export interface WriteRequest {
  params: Record<string, string>;
  /** The parsed JSON body; `undefined` when there was none. */
  body: unknown;
  header(name: string): string | undefined;
  requestId: string;
  caller: Caller;
}

export interface WriteAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The record a stream's events fold into, through the resource's projection. */
function fold(projection: DocumentProjection, events: readonly StoredEvent[]) {
  return events.reduce(
    (doc, event) => (projection.handles.includes(event.type) ? evolveStamped(projection, doc, event) : doc),
    null as ReturnType<DocumentProjection['evolve']>,
  );
}

/**
 * The claim of a client's `Idempotency-Key` on a write (422 when malformed): scoped by the caller
 * (their workspace and the member they act as, where there are) and the route as declared, not the
 * spelling of the URL, so another caller's key is another key. The target is its fingerprint.
 */
export function idempotencyClaim(
  module: ModuleDefinition,
  route: string,
  request: Pick<WriteRequest, 'header' | 'params' | 'body' | 'caller'>,
): IdempotencyClaim | undefined {
  const key = request.header('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ApiError('validation_error', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
      issues: [{ loc: ['header', 'Idempotency-Key'], msg: 'Invalid idempotency key', type: 'value_error' }],
    });
  }
  const target = { route, params: request.params, body: request.body };
  const { actor, scope, member } = request.caller;
  const caller = [scope, actor, member].filter((part) => part !== undefined).join(':');
  return {
    key: `${module.id}:${caller}:${route}:${key}`,
    fingerprint: createHash('sha256')
      .update(canonicalize(target) as string)
      .digest('hex'),
  };
}

/**
 * The command context of an HTTP request: the caller as actor (and their scope as organisation), the
 * request and correlation ids, and the time the request arrived.
 */
export function requestCommandContext(
  services: WriteServices,
  request: Pick<WriteRequest, 'caller' | 'requestId' | 'header'>,
  idempotency?: IdempotencyClaim,
): CommandContext {
  const { caller } = request;
  const metadata = {
    actor: caller.actor,
    ...(caller.actorName !== undefined && { actor_name: caller.actorName }),
    ...(caller.person !== undefined && { person: caller.person }),
    ...(caller.scope !== undefined && { organisation: caller.scope }),
    ...(caller.member !== undefined && { member: caller.member }),
    request_id: request.requestId,
    correlation_id: clientToken(request.header('x-correlation-id')) ?? request.requestId,
    causation_id: null,
    occurred_at: isoTimestamp(services.clock.now()),
    ...(idempotency && { idempotency_key: idempotency.key }),
    ...(caller.approval && {
      proposal_id: caller.approval.proposal_id,
      proposed_by: caller.approval.proposed_by,
      approved_by: caller.approval.approved_by,
      ...(caller.approval.approver_person !== undefined && {
        approver_person: caller.approval.approver_person,
      }),
    }),
  };
  return {
    eventStore: services.eventStore,
    ids: services.ids,
    clock: services.clock,
    eventId: idempotency ? eventIdsFrom(idempotency.key) : newEventId,
    metadata: () => metadata,
    idempotency,
  };
}

/**
 * Runs an audited write: validate the body strictly, honour `Idempotency-Key` (a repeat returns the
 * first result and appends nothing; a repeat with another body is 422), execute the command with the
 * actor and request id on its events, wait until the read model shows it, and answer with the record.
 */
export async function executeWrite(
  module: ModuleDefinition,
  route: WriteRoute,
  services: WriteServices,
  request: WriteRequest,
): Promise<WriteAnswer> {
  const { eventStore, runtime } = services;

  async function answer(events: readonly StoredEvent[], replayed: boolean): Promise<WriteAnswer> {
    const last = events[events.length - 1];
    if (!last) throw new Error('A write answered for an empty stream');
    if (services.readYourWrites !== false) await runtime.waitFor(last.position);
    const folded = fold(route.projection, events);
    const [record] = folded ? await withNames(services.readStore, route.resource.names, [folded]) : [folded];
    const headers: Record<string, string> = { 'X-Event-Position': String(last.position) };
    if (replayed) headers['Idempotent-Replayed'] = 'true';
    if (route.status === 201 && record) headers.Location = `/api/v1/${route.resource.path}/${record.id}`;
    return { status: route.status, headers, body: record };
  }

  /** The first result again: the record as it was right after the first request's events. */
  async function replay(previous: IdempotencyRecord, fingerprint: string): Promise<WriteAnswer> {
    if (previous.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request');
    }
    return answer(await eventStore.readStream(previous.stream, { toRevision: previous.revision }), true);
  }

  if (request.body === undefined) {
    throw new ApiError('validation_error', 'A JSON request body is required', {
      issues: [{ loc: ['body'], msg: 'Field required', type: 'missing' }],
    });
  }
  const body = validated(route.body, request.body, 'body');
  const idempotency = idempotencyClaim(module, `${route.method.toUpperCase()} ${route.path}`, request);
  if (idempotency) {
    const previous = await eventStore.findIdempotency(idempotency.key);
    if (previous) return replay(previous, idempotency.fingerprint);
  }
  const { outcome } = await route.execute(
    { body, params: request.params, caller: request.caller },
    requestCommandContext(services, request, idempotency),
  );
  if (outcome.duplicateOf && idempotency) return replay(outcome.duplicateOf, idempotency.fingerprint);
  // A write that changes nothing appends nothing and answers with the record as it stands.
  return answer([...outcome.history, ...outcome.events], false);
}
