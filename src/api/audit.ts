import type { RequestListener } from 'node:http';
import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { PROPOSALS_COLLECTION, proposalStream } from '../approvals';
import { upcast, type SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import { UnknownPositionError, type EventStore, type LogQuery } from '../events/event-store';
import { verifyLog } from '../events/verify';
import type { DocumentProjection } from '../projections/projection';
import type { LogTree } from '../log-proofs/log-tree';
import { evidenceBundle, EvidenceError } from '../log-proofs/evidence';
import { consistency, inclusion } from '../log-proofs/proofs';
import type { TreeStore } from '../log-proofs/tree-store';
import { listParkedEvents } from '../projections/parked-events';
import type { DocumentId, ReadStore } from '../projections/read-store';
import type { Clock } from '../clock';
import type { IdAllocator } from '../commands/ids';
import type { Config } from '../config';
import type { Principal } from '../iam/principal';
import { eraseSubject, erasureDone } from '../privacy/erase';
import { withErasures } from '../privacy/erasures-in-history';
import { ERASURES_COLLECTION, MAX_REASON, SUBJECT } from '../privacy/erasures';
import type { SubjectKeyStore } from '../privacy/subject-keys';
import type { ProjectionProgress } from '../projections/runtime';
import { callerOf, requireAdministrator, requireAuditor, requireCredential } from './kit/auth';
import { principalBody, PrincipalSchema } from './kit/principal-route';
import { readJsonBody } from './kit/http';
import { requestCommandContext } from './kit/writes';
import { createIdentity, type Identity } from './kit/identity';
import type { AuthThrottle } from './kit/auth-throttle';
import { ApiError, validated } from './kit/errors';
import type { ModuleDefinition } from './kit/module';
import {
  TOO_MANY_FAILURES,
  envelope,
  eventStream,
  generateDescriptions,
  json,
  operationId,
  registerBasics,
} from './kit/openapi';
import { parseItemId } from './kit/reads';
import { LICENSE_PATH } from './kit/license';
import { createRouteTable } from './kit/routes';
import { requestObserver, served, type ServingServices } from './kit/observation';
import { integerParameter, shortened } from './kit/validation';

export interface AuditServices extends ServingServices {
  modules: readonly ModuleDefinition[];
  catalog: SuiteCatalog;
  /** The log as stored (personal data sealed): what `verify` checks. */
  storedEvents: EventStore;
  /** The log with its personal data opened, or read as erased: what auditors are shown. */
  auditEvents: EventStore;
  /** Where the projections park the events they cannot apply. */
  readStore: ReadStore;
  /** The Merkle tree over the log and its signed checkpoints; absent, the proof routes answer 503. */
  logTree?: LogTree;
  logger: Logger;
  /** For erasures: the commands' log and ids, the subjects' keys, and how far the read models are. */
  eventStore: EventStore;
  ids: IdAllocator;
  clock: Clock;
  subjectKeys: SubjectKeyStore;
  runtime: ProjectionProgress;
  /** The bootstrap administrator's token (erasures take the admin role). */
  config: Pick<Config, 'apiToken'>;
}

const isoTime = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 time' });

const LogFilters = z.strictObject({
  after: integerParameter().optional().meta({ description: 'Events after this position (the cursor)' }),
  limit: integerParameter().optional().meta({ description: 'Page size, 1 to 1000 (default 100)' }),
  until: integerParameter().optional().meta({ description: 'Up to and including this position' }),
  module: z.string().optional(),
  stream: z.string().optional(),
  type: z.string().optional(),
  actor: z.string().optional(),
  organisation: z.string().optional(),
  from: isoTime.optional().meta({ description: 'occurred_at at or after' }),
  to: isoTime.optional().meta({ description: 'occurred_at at or before' }),
});

const Envelope = z
  .object({
    event_id: z.string(),
    stream: z.string(),
    revision: z.number().int(),
    position: z.number().int(),
    type: z.string(),
    schema_version: z.number().int(),
    data: z.record(z.string(), z.unknown()),
    metadata: z.record(z.string(), z.unknown()),
    prev_hash: z.string(),
    hash: z.string(),
  })
  .meta({ id: 'EventEnvelope' });

const ParkedEventRecord = z
  .object({
    id: z.string(),
    projection: z.string().meta({ description: 'The read model whose projection could not apply the event' }),
    position: z.number().int(),
    event_id: z.string(),
    stream: z.string(),
    type: z.string(),
    error: z.string(),
  })
  .meta({ id: 'ParkedEvent' });

const ParkedQuery = z.strictObject({
  limit: integerParameter({ min: 1, max: 1000 })
    .optional()
    .meta({ description: 'Page size, 1 to 1000 (default 100)' }),
  offset: integerParameter({ min: 0 }).optional(),
  position: integerParameter({ min: 1 }).optional().meta({ description: 'Only the event at this position' }),
});

const InclusionQuery = z.strictObject({
  index: integerParameter({ min: 0 })
    .optional()
    .meta({ description: 'The leaf: the index-th event (0-based)' }),
  position: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The leaf of the event at this position' }),
  tree_size: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'A signed tree size (default: the latest checkpoint\u2019s)' }),
});

const EvidenceQuery = z.strictObject({
  position: integerParameter({ min: 1 }).meta({ description: 'The event' }),
  tree_size: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The size of a kept checkpoint (default: the latest)' }),
});

const ConsistencyQuery = z.strictObject({
  from: integerParameter({ min: 1 }).meta({ description: 'The size of the older signed tree' }),
  to: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The size of the newer one (default: the latest checkpoint\u2019s)' }),
});

const ErasureBody = z.strictObject({
  subject: z
    .string()
    .regex(SUBJECT, 'Input should be a data subject, the stream of a person: hrm.employee-42, crm.contact-3')
    .meta({ description: 'The data subject: hrm.employee-42 (see docs/PERSONAL-DATA.md)' }),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(MAX_REASON)
    .meta({ description: 'Why, for the record (no personal data)' }),
});

const ErasureQuery = z.strictObject({
  subject: z.string().optional().meta({ description: 'Only the erasures of this subject' }),
  limit: integerParameter({ min: 1, max: 1000 }).optional().meta({ description: 'Page size (default 100)' }),
  offset: integerParameter({ min: 0 }).optional(),
});

const ErasurePath = z.strictObject({
  id: integerParameter({ min: 1 }).meta({ description: 'The erasure\u2019s id' }),
});

const Erasure = z.object({
  id: z.number().int(),
  subject: z.string(),
  reason: z.string(),
  erased_at: z.string(),
  erased_by: z.string(),
});

const HashList = z.array(z.string().meta({ description: 'A SHA-256 hash, lowercase hex' }));

const DEFAULT_PAGE = 100;
const ERASURE_BODY_BYTES = 4 * 1024;
/** How long an erasure's answer waits for the read models to be folded again without the subject's data. */
const ERASURE_WAIT_MS = 30_000;
const MAX_PAGE = 1000;
const HEARTBEAT_MS = 15_000;

function parseQuery<Schema extends z.ZodType>(schema: Schema, req: Request): z.infer<Schema> {
  const single = Object.fromEntries(
    Object.entries(req.query).map(([key, value]) => [
      key,
      Array.isArray(value) ? value[value.length - 1] : value,
    ]),
  );
  return validated(schema, single, 'query');
}

/** The erasure a request asks for: 422 in the envelope when the body is not one. */
async function erasureBody(req: Request): Promise<z.infer<typeof ErasureBody>> {
  return validated(ErasureBody, await readJsonBody(req, ERASURE_BODY_BYTES), 'body');
}

function logQuery(filters: z.infer<typeof LogFilters>): LogQuery {
  const limit = filters.limit ?? DEFAULT_PAGE;
  if (limit < 1 || limit > MAX_PAGE) {
    const issue = {
      loc: ['query', 'limit'],
      msg: `Input should be between 1 and ${MAX_PAGE}`,
      type: 'value_error',
    };
    throw new ApiError('validation_error', `limit: ${issue.msg}`, { issues: [issue] });
  }
  return { ...filters, after: Math.max(0, filters.after ?? 0), limit };
}

const AuditHealth = z
  .object({
    status: z.string(),
    product: z.string(),
    version: z.string(),
    audit_enabled: z.boolean().meta({ description: 'Whether an auditor token is configured' }),
    log: z.enum(['checking', 'ok', 'inconsistent', 'none']).meta({
      description:
        'The Merkle tree over the log: `checking` it against its latest checkpoint, `ok`, `inconsistent`; `none` when this process keeps none (read-only)',
    }),
  })
  .meta({ id: 'AuditHealth' });

/** The audit API's description, as `/api/openapi.json` serves it. */
export function describeAudit() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'auditorAuth', { type: 'http', scheme: 'bearer' });
  registerBasics(registry, 'audit', AuditHealth);
  const id = (operation: string) => ({ operationId: operationId('audit', operation) });
  const security = [{ auditorAuth: [] }];
  const denied = {
    401: envelope('Missing or wrong auditor token'),
    403: envelope('A credential without the auditor role'),
    429: TOO_MANY_FAILURES,
    503: envelope('No auditor token is configured'),
  };
  const invalid = { 422: envelope('Invalid parameter') };
  registry.registerPath({
    method: 'get',
    path: '/api/v1/events',
    ...id('listEvents'),
    summary: 'The log, filtered, paginated by position',
    security,
    request: { query: LogFilters },
    responses: {
      200: json(
        z.object({ data: z.array(Envelope), meta: z.record(z.string(), z.unknown()) }),
        'A page of events',
      ),
      ...denied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/events/live',
    ...id('tailEvents'),
    summary: 'Server-sent events tail of the log; resume with `after` or `Last-Event-ID`',
    security,
    request: { query: LogFilters.omit({ limit: true, until: true }) },
    responses: {
      200: eventStream(
        'The log from `after` on: `id` = position, `event` = type, `data` = the event envelope',
      ),
      ...denied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/history/{module}/{resource}/{id}',
    ...id('getHistory'),
    summary:
      'The events that shaped one record, each with the record as it was after it, and the erasures (`SubjectErased`) of the subjects whose personal data they hold',
    security,
    request: { params: z.object({ module: z.string(), resource: z.string(), id: z.string() }) },
    responses: {
      200: json(z.record(z.string(), z.unknown()), 'History'),
      404: envelope('No such record'),
      ...denied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/projections/parked',
    ...id('listParkedEvents'),
    summary:
      'Events a projection could not apply: parked, in log order, while every other read model stays live',
    security,
    request: { query: ParkedQuery },
    responses: {
      200: json(
        z.object({
          data: z.array(ParkedEventRecord),
          meta: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
        }),
        'A page of parked events',
      ),
      ...denied,
      ...invalid,
    },
  });
  const proofsDenied = {
    ...denied,
    503: envelope('No auditor token is configured, or this process keeps no tree over the log (read-only)'),
  };
  registry.registerPath({
    method: 'get',
    path: '/api/v1/checkpoint',
    ...id('getCheckpoint'),
    summary:
      'The latest signed checkpoint: a C2SP tlog-checkpoint (origin, tree size, root) in a signed note',
    security,
    responses: {
      200: { description: 'The signed note', content: { 'text/plain': { schema: z.string() } } },
      404: envelope('No checkpoint has been signed yet'),
      ...proofsDenied,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/proofs/inclusion',
    ...id('proveInclusion'),
    summary: 'Proof that an event is in a signed tree (RFC 9162 \u00a72.1.3): by leaf index or log position',
    security,
    request: { query: InclusionQuery },
    responses: {
      200: json(
        z.object({
          index: z.number().int(),
          tree_size: z.number().int(),
          position: z.number().int(),
          leaf_hash: z.string(),
          hashes: HashList,
          event: Envelope,
        }),
        'The proof',
      ),
      404: envelope('No event at that position'),
      ...proofsDenied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/evidence',
    ...id('getEvidence'),
    summary:
      'The evidence that an event is in the log, as `suite audit prove` writes it: the event as stored, its inclusion proof and the signed checkpoint (`suite audit verify-bundle` checks it offline)',
    security,
    request: { query: EvidenceQuery },
    responses: {
      200: json(z.record(z.string(), z.unknown()), 'The evidence bundle (`suite-inclusion-evidence/1`)'),
      404: envelope('No such event in the tree, no such checkpoint kept, or the event came after it'),
      ...proofsDenied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/proofs/consistency',
    ...id('proveConsistency'),
    summary: 'Proof that a signed tree extends an older one (RFC 9162 \u00a72.1.4)',
    security,
    request: { query: ConsistencyQuery },
    responses: {
      200: json(
        z.object({ from: z.number().int(), to: z.number().int(), hashes: HashList }),
        'The proof (empty when from = to)',
      ),
      ...proofsDenied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/v1/erasures',
    ...id('eraseSubject'),
    summary:
      'Erase a data subject\'s personal data (GDPR Art. 17): its key is deleted and the subject tombstoned; answered once no read model holds its data, whatever writes ran meanwhile; every read shows its personal fields as null or "[erased]"; the log and its proofs still verify',
    security,
    'x-required-role': 'admin',
    request: { body: { content: { 'application/json': { schema: ErasureBody } } } },
    responses: {
      201: json(Erasure, "The erasure, as recorded: done, no read model holds the subject's data"),
      401: envelope('Missing or wrong credentials'),
      403: envelope('Not an administrator'),
      404: envelope(
        '`unknown_subject`: the suite holds no record of this subject (nothing recorded); `details.nearest` names the nearest known subjects',
      ),
      422: envelope('Not a subject, or no reason'),
      429: TOO_MANY_FAILURES,
      503: envelope(
        'No administrator token is configured; or `not_caught_up`: the erasure is recorded and its keys deleted, but the process that projects did not fold the read models again in time',
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/erasures',
    ...id('listErasures'),
    summary: 'What was erased, when, by whom, why',
    security,
    request: { query: ErasureQuery },
    responses: {
      200: json(
        z.object({
          data: z.array(Erasure),
          meta: z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
        }),
        'A page of erasures, oldest first',
      ),
      ...denied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/erasures/{id}',
    ...id('getErasure'),
    summary: 'One erasure: what, when, by whom, why',
    security,
    request: { params: ErasurePath },
    responses: {
      200: json(Erasure, 'The erasure'),
      404: envelope('No erasure has this id'),
      ...denied,
      ...invalid,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/me',
    ...id('getMe'),
    summary: 'The principal the bearer credential names, whatever its roles (how the console signs in)',
    security,
    responses: {
      200: json(PrincipalSchema, 'The principal'),
      401: envelope('A missing, unknown, revoked or expired credential'),
      429: TOO_MANY_FAILURES,
      503: envelope('No credential is configured'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/v1/verify',
    ...id('verifyLog'),
    summary: 'Verify hash chains, revisions and schemas; digest of the log up to a position',
    security,
    request: { query: z.object({ until: integerParameter().optional() }) },
    responses: { 200: json(z.record(z.string(), z.unknown()), 'Verification report'), ...denied },
  });
  return generateDescriptions(registry, {
    title: 'Audit API',
    version: '1.0.0',
    description:
      'Access for auditors: the event log, the history of any record, verification of the hash chains, ' +
      'signed checkpoints and proofs, and a live tail; every read needs the auditor role. Erasures of ' +
      'data subjects take the admin role.',
  });
}

/**
 * The auditors' API (its own port, read-only): the log with its full envelopes, the history of one
 * record folded event by event, verification with a digest, and a live tail over server-sent events.
 */
export function createAuditApp(
  services: AuditServices,
  auditToken: string | undefined,
  /** The failed-authentication throttle the module ports share; unset: none. */
  authThrottle?: AuthThrottle,
  /** Who a bearer token names; default: the bootstrap auditor's token alone. */
  identity: Identity = createIdentity({ auditToken }),
): RequestListener {
  const { storedEvents, auditEvents, catalog, logger } = services;
  const observer = requestObserver(logger, 'audit', services.metrics);
  const table = createRouteTable(observer, {
    index: {
      product: 'Audit',
      version: '1.0.0',
      links: {
        health: '/api/v1/health',
        openapi: '/api/openapi.json',
        swagger: '/swagger.json',
        docs: '/api/docs',
        license: LICENSE_PATH,
      },
      endpoints: [
        '/api/v1/events',
        '/api/v1/events/live',
        '/api/v1/history/{module}/{resource}/{id}',
        '/api/v1/projections/parked',
        '/api/v1/checkpoint',
        '/api/v1/proofs/inclusion',
        '/api/v1/proofs/consistency',
        '/api/v1/evidence',
        '/api/v1/erasures',
        '/api/v1/verify',
        '/api/v1/me',
      ],
    },
    health: () => ({
      status: 'ok',
      product: 'Audit',
      version: '1.0.0',
      audit_enabled: auditToken !== undefined,
      // `none`: this process keeps no tree over the log (a read-only copy).
      log: services.logTree?.status() ?? 'none',
    }),
    descriptions: describeAudit(),
  });
  const auditor = requireAuditor(identity, auditToken, authThrottle);

  const bootstrapped = auditToken !== undefined || services.config.apiToken !== undefined;
  table.route('get', '/api/v1/me', requireCredential(identity, bootstrapped, authThrottle), (_req, res) => {
    res.set('Cache-Control', 'no-store').json(principalBody(res.locals.principal as Principal));
  });

  table.route('get', '/api/v1/events', auditor, async (req, res) => {
    const query = logQuery(parseQuery(LogFilters, req));
    const events = await auditEvents.queryLog(query);
    const last = events[events.length - 1];
    res.json({
      data: events,
      meta: {
        after: query.after,
        limit: query.limit,
        next_after: events.length === query.limit && last ? last.position : null,
        head_position: await storedEvents.headPosition(),
      },
    });
  });

  table.route('get', '/api/v1/history/:module/:resource/:id', auditor, async (req, res) => {
    const params = req.params as Record<string, string>;
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
    res.json({ data: { module: module.id, resource: params.resource, id, events: steps } });
  });

  const treeOf = (): TreeStore => {
    if (!services.logTree) throw new ApiError('api_disabled', 'This process keeps no tree over the log');
    return services.logTree.store;
  };

  table.route('get', '/api/v1/checkpoint', auditor, (_req, res) => {
    const latest = treeOf().latestCheckpoint();
    if (!latest) throw new ApiError('not_found', 'No checkpoint has been signed yet');
    res.type('text/plain; charset=utf-8').send(latest.note);
  });

  table.route('get', '/api/v1/proofs/inclusion', auditor, async (req, res) => {
    res.json(await inclusion(treeOf(), auditEvents, parseQuery(InclusionQuery, req)));
  });

  table.route('get', '/api/v1/proofs/consistency', auditor, async (req, res) => {
    res.json(await consistency(treeOf(), parseQuery(ConsistencyQuery, req)));
  });

  // The event as stored (its personal data sealed), which its hash covers: the bundle checks offline.
  table.route('get', '/api/v1/evidence', auditor, async (req, res) => {
    const { position, tree_size } = parseQuery(EvidenceQuery, req);
    try {
      res.json(await evidenceBundle(treeOf(), storedEvents, position, tree_size));
    } catch (error) {
      if (error instanceof EvidenceError) throw new ApiError('not_found', error.message);
      throw error;
    }
  });

  table.route('get', '/api/v1/projections/parked', auditor, async (req, res) => {
    const { limit = DEFAULT_PAGE, offset = 0, position } = parseQuery(ParkedQuery, req);
    const page = await listParkedEvents(services.readStore, { limit, offset, position });
    res.json({ data: page.items, meta: { total: page.total, limit, offset } });
  });

  const administrator = requireAdministrator(identity, services.config.apiToken, authThrottle);

  table.route('post', '/api/v1/erasures', administrator, async (req, res) => {
    const { subject, reason } = await erasureBody(req);
    const caller = callerOf(res.locals.principal as Principal);
    const context = requestCommandContext(services, {
      caller,
      requestId: res.locals.requestId as string,
      header: (name) => req.get(name),
    });
    const { id, position } = await eraseSubject(context, services.subjectKeys, subject, reason);
    // Answered once no read model holds the subject's data any more (the process that projects did it).
    if (!(await erasureDone(services.readStore, position, ERASURE_WAIT_MS))) {
      throw new ApiError(
        'not_caught_up',
        `Erasure ${id} is recorded and the keys are deleted, but the read models were not folded again in time`,
        { erasure: id },
      );
    }
    await services.runtime.waitFor(position, ERASURE_WAIT_MS);
    const erased = await services.readStore.get(ERASURES_COLLECTION, id);
    res.status(201).location(`/api/v1/erasures/${id}`).type('json').send(erased);
  });

  table.route('get', '/api/v1/erasures', auditor, async (req, res) => {
    const { subject, limit = DEFAULT_PAGE, offset = 0 } = parseQuery(ErasureQuery, req);
    const filters = subject === undefined ? [] : [{ field: 'subject', op: 'eq' as const, value: subject }];
    const page = await services.readStore.find(ERASURES_COLLECTION, { filters, limit, offset });
    res.json({
      data: page.items.map((item) => JSON.parse(item) as unknown),
      meta: { total: page.total, limit, offset },
    });
  });

  table.route('get', '/api/v1/erasures/:id', auditor, async (req, res) => {
    const { id } = validated(ErasurePath, req.params, 'path');
    const erasure = await services.readStore.get(ERASURES_COLLECTION, id);
    if (erasure === null) throw new ApiError('not_found', `Erasure ${id} not found`);
    res.type('json').send(erasure);
  });

  table.route('get', '/api/v1/verify', auditor, async (req, res) => {
    const { until } = parseQuery(z.strictObject({ until: integerParameter().optional() }), req);
    res.json(await verifyLog(storedEvents, catalog, { until }));
  });

  table.route('get', '/api/v1/events/live', auditor, async (req, res) => {
    const filters = parseQuery(LogFilters.omit({ limit: true, until: true }), req);
    const resumeFrom = req.get('last-event-id');
    const after = filters.after ?? (resumeFrom && /^\d+$/.test(resumeFrom) ? Number(resumeFrom) : undefined);
    // Checked before the stream starts, so that a bad cursor is answered 422 rather than a closed tail.
    if (after && !(await storedEvents.eventAt(after))) throw new UnknownPositionError(after);
    liveTail(auditEvents, logger, req, res, { ...filters, after });
  });

  return served(table.finish(), { readiness: services.readiness, observer });
}

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

/** Streams the log after a position (the head, by default), then every new event as it is committed. */
/** Resolves once the client has taken what it was sent, or has gone; leaves no listener behind. */
function drainedOrGone(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function liveTail(
  store: EventStore,
  logger: Logger,
  req: Request,
  res: Response,
  filters: Omit<LogQuery, 'limit' | 'after'> & { after?: number },
) {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
  let closed = false;
  let pumping = false;
  let again = false;
  let position: number | undefined = filters.after;

  const send = (event: StoredEvent) =>
    res.write(`id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      position ??= await store.headPosition();
      do {
        again = false;
        for (;;) {
          const page = await store.queryLog({ ...filters, after: position, limit: 500 });
          if (closed || page.length === 0) break;
          for (const event of page) send(event);
          position = (page[page.length - 1] as StoredEvent).position;
          // A slow client holds the tail back; one that leaves releases it.
          if (res.writableNeedDrain) await drainedOrGone(res);
        }
      } while (again && !closed);
    } finally {
      pumping = false;
    }
  }

  // An event that cannot be sent (nested too deep to serialise) ends this tail, not the process.
  const pumpOrEnd = () =>
    void pump().catch((error: unknown) => {
      logger.error({ err: error }, 'live tail failed');
      closed = true;
      res.end();
    });
  const unsubscribe = store.onAppended(pumpOrEnd);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  req.on('close', () => {
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
  });
  pumpOrEnd();
}
