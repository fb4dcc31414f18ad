import { z } from 'zod';
import { listParkedEvents } from '../../projections/parked-events';
import { integerParameter } from '../kit/validation';
import { DEFAULT_PAGE, PageMeta, type AuditRoute } from './services';

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

const listParked: AuditRoute<z.infer<typeof ParkedQuery>> = {
  method: 'get',
  path: '/api/v1/projections/parked',
  operation: 'listParkedEvents',
  summary:
    'Events a projection could not apply: parked, in log order, while every other read model stays live',
  role: 'auditor',
  query: ParkedQuery,
  responses: {
    200: {
      description: 'A page of parked events',
      schema: z.object({ data: z.array(ParkedEventRecord), meta: PageMeta }),
    },
    422: { description: 'Invalid parameter' },
  },
  async handle({ query: { limit = DEFAULT_PAGE, offset = 0, position } }, { readStore }) {
    const page = await listParkedEvents(readStore, { limit, offset, position });
    return { status: 200, body: { data: page.items, meta: { total: page.total, limit, offset } } };
  },
};

/** The events the projections parked. */
export const parkedRoutes = [listParked];
