import { z } from 'zod';
import type { LogQuery } from '../../events/event-store';
import { verifyLog } from '../../events/verify';
import { servedEvents } from '../../privacy/served-events';
import { ApiError, validationError } from '../kit/errors';
import { integerParameter, type ValidationDetail } from '../kit/validation';
import { listParameter } from '../kit/parameters';
import type { SuiteCatalog } from '../../events/catalog';
import { unknownFilterValues, unknownValueMessage } from '../../events/log-filter';
import { DEFAULT_PAGE, EventEnvelope, type AuditRoute } from './services';

const MAX_PAGE = 1000;

const isoTime = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 time' });

/** What the log is filtered by, in a page and in the live tail. */
export const LogFilters = z.strictObject({
  after: integerParameter().optional().meta({ description: 'Events after this position (the cursor)' }),
  limit: integerParameter().optional().meta({ description: 'Page size, 1 to 1000 (default 100)' }),
  until: integerParameter().optional().meta({ description: 'Up to and including this position' }),
  module: listParameter('Events of this module (`esm`, or a capability: `iam`, `approvals`, `privacy`)'),
  stream: listParameter('Events of this stream (`esm.request-42`)'),
  type: listParameter('Events of this type (`RequestSubmitted`)'),
  actor: z.string().optional(),
  organisation: z.string().optional(),
  from: isoTime.optional().meta({ description: 'occurred_at at or after' }),
  to: isoTime.optional().meta({ description: 'occurred_at at or before' }),
});

/**
 * Refuses (422) a filter naming a module or an event type the log cannot hold: it would answer
 * nothing, as if the log had nothing of it.
 */
export function checkReadable(filters: Pick<LogQuery, 'module' | 'type'>, catalog: SuiteCatalog): void {
  const issues = unknownFilterValues(filters, catalog).map((unknown): ValidationDetail => ({
    loc: ['query', unknown.filter],
    msg: unknownValueMessage(unknown, catalog),
    type: 'value_error',
    input: unknown.value,
  }));
  if (issues.length > 0) throw validationError(issues);
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

const listEvents: AuditRoute<z.infer<typeof LogFilters>> = {
  method: 'get',
  path: '/api/v1/events',
  operation: 'listEvents',
  summary: 'The log, filtered, paginated by position',
  role: 'auditor',
  query: LogFilters,
  responses: {
    200: {
      description: 'A page of events',
      schema: z.object({ data: z.array(EventEnvelope), meta: z.record(z.string(), z.unknown()) }),
    },
    422: { description: 'Invalid parameter' },
  },
  async handle({ query: filters }, { storedEvents, subjectKeys, catalog }) {
    checkReadable(filters, catalog);
    const query = logQuery(filters);
    const events = await servedEvents(await storedEvents.queryLog(query), subjectKeys);
    const last = events[events.length - 1];
    const meta = {
      after: query.after,
      limit: query.limit,
      next_after: events.length === query.limit && last ? last.position : null,
      head_position: await storedEvents.headPosition(),
    };
    return { status: 200, body: { data: events, meta } };
  },
};

const VerifyQuery = z.strictObject({ until: integerParameter().optional() });

const verify: AuditRoute<z.infer<typeof VerifyQuery>> = {
  method: 'get',
  path: '/api/v1/verify',
  operation: 'verifyLog',
  summary: 'Verify hash chains, revisions and schemas; digest of the log up to a position',
  role: 'auditor',
  query: VerifyQuery,
  responses: {
    200: { description: 'Verification report', schema: z.record(z.string(), z.unknown()) },
    422: { description: 'Invalid parameter' },
  },
  async handle({ query }, { storedEvents, catalog }) {
    return { status: 200, body: await verifyLog(storedEvents, catalog, { until: query.until }) };
  },
};

/** The log's pages and its verification. */
export const logRoutes = [listEvents, verify];
