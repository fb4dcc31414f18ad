import { z } from 'zod';
import { foldedSteps, recordStory, withinCut } from '../../audit/record-history';
import type { StoredEvent } from '../../events/envelope';
import { servedAndOpened } from '../../privacy/served-events';
import { ApiError, validationError } from '../kit/errors';
import { timeTravelCut, TimeTravelQuery, travels } from '../kit/time-travel';
import { shortened } from '../kit/validation';
import { auditedRecord, type RecordPath } from './records';
import type { AuditRoute } from './services';

const getHistory: AuditRoute<TimeTravelQuery> = {
  method: 'get',
  path: '/api/v1/history/:module/:resource/:id',
  operation: 'getHistory',
  summary:
    'The events that shaped one record (as stored, with `opened` beside), each with the record as it was after it, and the erasures (`SubjectErased`) of the subjects whose personal data they hold; with as_of, as_of_position or valid_at, those within that cut, named by `meta`',
  role: 'auditor',
  params: z.object({ module: z.string(), resource: z.string(), id: z.string() }),
  query: TimeTravelQuery,
  responses: {
    200: { description: 'History', schema: z.record(z.string(), z.unknown()) },
    404: { description: 'No such record' },
    422: { description: 'Invalid parameter' },
  },
  async handle({ params, query }, services) {
    const path = params as unknown as RecordPath;
    const record = auditedRecord(services.modules, path);
    const cut = travels(query) ? await timeTravelCut(services.storedEvents, query) : undefined;
    if (cut && 'loc' in cut) throw validationError([cut]);
    const whole = await recordStory({ ...services, events: services.storedEvents }, record);
    const story = cut ? whole.filter((event) => withinCut(cut, event)) : whole;
    if (story.length === 0) {
      throw new ApiError(
        'not_found',
        `${record.name} ${shortened(path.id)} has no history${cut ? ' then' : ''}`,
      );
    }
    // Each step's event as stored, with its opened values beside; its record folded from them opened.
    const { served, opened } = await servedAndOpened(story, services.subjectKeys);
    const steps = foldedSteps(services.catalog, record.projection, opened).map((step, index) => ({
      ...step,
      event: served[index] ?? step.event,
    }));
    const data = { module: record.module, resource: path.resource, id: record.id, events: steps };
    if (!cut) return { status: 200, body: { data } };
    const meta = { ...query, position: (story.at(-1) as StoredEvent).position };
    return { status: 200, body: { data, meta } };
  },
};

/** Each record's history, event by event. */
export const historyRoutes = [getHistory];
