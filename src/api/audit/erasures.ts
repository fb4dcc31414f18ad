import { z } from 'zod';
import { eraseSubject, erasureDone } from '../../privacy/erase';
import { ERASURES_COLLECTION, erasuresCollection, MAX_REASON, SUBJECT } from '../../privacy/erasures';
import { ApiError, validated } from '../kit/errors';
import { orderParameters, PageMeta, routeOrder } from '../kit/list-order';
import { withRecordTimes } from '../kit/record-times';
import { TOO_MANY_FAILURES } from '../kit/openapi';
import { integerParameter } from '../kit/validation';
import { DEFAULT_PAGE, type AuditRoute } from './services';

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
  ...orderParameters(erasuresCollection),
});

const ErasurePath = z.strictObject({
  id: integerParameter({ min: 1 }).meta({ description: 'The erasure\u2019s id' }),
});

const Erasure = withRecordTimes(
  z.object({
    id: z.number().int(),
    subject: z.string(),
    reason: z.string(),
    erased_at: z.string(),
    erased_by: z.string(),
  }),
);

const ERASURE_BODY_BYTES = 4 * 1024;
/** How long an erasure's answer waits for the read models to be folded again without the subject's data. */
const ERASURE_WAIT_MS = 30_000;

/** An erasure as the read model keeps it: JSON text, answered as it is. */
const stored = (document: string | null): unknown => (document === null ? null : JSON.parse(document));

const eraseSubjectRoute: AuditRoute<unknown, z.infer<typeof ErasureBody>> = {
  method: 'post',
  path: '/api/v1/erasures',
  operation: 'eraseSubject',
  summary:
    'Erase a data subject\'s personal data (GDPR Art. 17): its key is deleted and the subject tombstoned; answered once no read model holds its data, whatever writes ran meanwhile; every read shows its personal fields as null or "[erased]"; the log and its proofs still verify',
  auth: 'bearer',
  role: 'admin',
  // Erasures are the administrator's own act: no approval policy holds them back.
  proposable: false,
  body: ErasureBody,
  bodyLimit: ERASURE_BODY_BYTES,
  responses: {
    201: {
      description: "The erasure, as recorded: done, no read model holds the subject's data",
      schema: Erasure,
    },
    400: { description: 'Malformed JSON' },
    401: { description: 'Missing or wrong credentials' },
    403: { description: 'Not an administrator' },
    404: {
      description:
        '`unknown_subject`: the suite holds no record of this subject (nothing recorded); `details.nearest` names the nearest known subjects',
    },
    413: { description: 'Body too large' },
    415: { description: 'Body is not JSON' },
    422: { description: 'Not a subject, or no reason' },
    429: { description: TOO_MANY_FAILURES.description },
    503: {
      description:
        'No administrator token is configured; or `not_caught_up`: the erasure is recorded and its keys deleted, but the process that projects did not fold the read models again in time',
    },
  },
  async handle({ body: { subject, reason }, commands }, services) {
    const { id, position } = await eraseSubject(commands, services.subjectKeys, subject, reason);
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
    return { status: 201, headers: { Location: `/api/v1/erasures/${id}` }, body: stored(erased) };
  },
};

const listErasures: AuditRoute<z.infer<typeof ErasureQuery>> = {
  method: 'get',
  path: '/api/v1/erasures',
  operation: 'listErasures',
  summary: 'What was erased, when, by whom, why',
  role: 'auditor',
  query: ErasureQuery,
  responses: {
    200: {
      description: 'A page of erasures, oldest first unless sorted',
      schema: z.object({ data: z.array(Erasure), meta: PageMeta }),
    },
    422: { description: 'Invalid parameter' },
  },
  async handle({ query }, { readStore }) {
    const { subject, limit = DEFAULT_PAGE, offset = 0 } = query;
    const filters = subject === undefined ? [] : [{ field: 'subject', op: 'eq' as const, value: subject }];
    const order = routeOrder(erasuresCollection, query);
    const page = await readStore.find(ERASURES_COLLECTION, { filters, limit, offset, ...order });
    return {
      status: 200,
      body: { data: page.items.map(stored), meta: { total: page.total, limit, offset, next: page.next } },
    };
  },
};

const getErasure: AuditRoute = {
  method: 'get',
  path: '/api/v1/erasures/:id',
  operation: 'getErasure',
  summary: 'One erasure: what, when, by whom, why',
  role: 'auditor',
  params: ErasurePath,
  responses: {
    200: { description: 'The erasure', schema: Erasure },
    404: { description: 'No erasure has this id' },
    422: { description: 'Invalid parameter' },
  },
  async handle({ params }, { readStore }) {
    const { id } = validated(ErasurePath, params, 'path');
    const erasure = await readStore.get(ERASURES_COLLECTION, id);
    if (erasure === null) throw new ApiError('not_found', `Erasure ${id} not found`);
    return { status: 200, body: stored(erasure) };
  },
};

/** Erasures of data subjects: the administrator's, and the record auditors read. */
export const erasureRoutes = [eraseSubjectRoute, listErasures, getErasure];
