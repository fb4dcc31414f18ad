import { createHash, randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Request, RequestHandler, Response } from 'express';
import { isoTimestamp, type Clock } from '../../clock';
import type { IdAllocator } from '../../commands/ids';
import type { StoredEvent } from '../../events/envelope';
import type { EventStore, IdempotencyRecord } from '../../events/event-store';
import type { DocumentProjection } from '../../projections/projection';
import type { ProjectionRuntime } from '../../projections/runtime';
import { ApiError } from './errors';
import type { ModuleDefinition, WriteRoute } from './module';
import { clientToken } from './logging';
import { summarise, zodDetails } from './validation';

export interface WriteServices {
  eventStore: EventStore;
  runtime: ProjectionRuntime;
  ids: IdAllocator;
  clock: Clock;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The record a stream's events fold into, through the resource's projection. */
function fold(projection: DocumentProjection, events: readonly StoredEvent[]) {
  return events.reduce(
    (doc, event) => (projection.handles.includes(event.type) ? projection.evolve(doc, event) : doc),
    null as ReturnType<DocumentProjection['evolve']>,
  );
}

function bodyOf(req: Request): unknown {
  if (req.body !== undefined) return req.body;
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody) throw new ApiError('unsupported_media_type', 'Send the request body as application/json');
  throw new ApiError('validation_error', 'A JSON request body is required', {
    issues: [{ loc: ['body'], msg: 'Field required', type: 'missing' }],
  });
}

function idempotencyClaim(module: ModuleDefinition, route: WriteRoute, req: Request, body: unknown) {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ApiError('validation_error', 'Idempotency-Key must be 1 to 255 visible ASCII characters', {
      issues: [{ loc: ['header', 'Idempotency-Key'], msg: 'Invalid idempotency key', type: 'value_error' }],
    });
  }
  // Scoped by the declared route, not the spelling of the URL; the target is part of the fingerprint.
  const request = { route: `${route.method.toUpperCase()} ${route.path}`, params: req.params, body };
  return {
    key: `${module.id}:${request.route}:${key}`,
    fingerprint: createHash('sha256')
      .update(canonicalize(request) as string)
      .digest('hex'),
  };
}

/**
 * Runs an audited write: validate the body strictly, honour `Idempotency-Key` (a repeat returns the
 * first result and appends nothing; a repeat with another body is 422), execute the command with the
 * actor and request id on its events, wait until the read model shows it, and answer with the record.
 */
export function writeHandler(
  module: ModuleDefinition,
  route: WriteRoute,
  services: WriteServices,
): RequestHandler {
  const { eventStore, runtime } = services;

  async function answer(res: Response, events: readonly StoredEvent[], replayed: boolean) {
    const last = events[events.length - 1];
    if (!last) throw new Error('A write answered for an empty stream');
    await runtime.waitFor(last.position);
    const record = fold(route.projection, events);
    if (replayed) res.set('Idempotent-Replayed', 'true');
    if (route.status === 201 && record) res.location(`/api/v1/${route.resource.path}/${record.id}`);
    res.status(route.status).set('X-Event-Position', String(last.position)).json(record);
  }

  /** The first result again: the record as it was right after the first request's events. */
  async function replay(res: Response, previous: IdempotencyRecord, fingerprint: string) {
    if (previous.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was used with a different request');
    }
    const events = await eventStore.readStream(previous.stream, { toRevision: previous.revision });
    return answer(res, events, true);
  }

  return async (req, res) => {
    const raw = bodyOf(req);
    const parsed = route.body.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      const issues = zodDetails(parsed.error, 'body');
      throw new ApiError('validation_error', summarise(issues), { issues });
    }
    const idempotency = idempotencyClaim(module, route, req, raw);
    if (idempotency) {
      const previous = await eventStore.findIdempotency(idempotency.key);
      if (previous) return replay(res, previous, idempotency.fingerprint);
    }
    const metadata = {
      actor: res.locals.actor as string,
      request_id: res.locals.requestId as string,
      correlation_id: clientToken(req.get('x-correlation-id')) ?? (res.locals.requestId as string),
      causation_id: null,
      occurred_at: isoTimestamp(services.clock.now()),
      ...(idempotency && { idempotency_key: idempotency.key }),
    };
    const { outcome } = await route.execute(
      { body: parsed.data, params: req.params as Record<string, string> },
      {
        eventStore,
        ids: services.ids,
        clock: services.clock,
        eventId: randomUUID,
        metadata: () => metadata,
        idempotency,
      },
    );
    if (outcome.duplicateOf && idempotency) return replay(res, outcome.duplicateOf, idempotency.fingerprint);
    // A write that changes nothing appends nothing and answers with the record as it stands.
    return answer(res, [...outcome.history, ...outcome.events], false);
  };
}
