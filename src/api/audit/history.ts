import { z } from 'zod';
import { foldedSteps, recordStory } from '../../audit/record-history';
import { servedAndOpened } from '../../privacy/served-events';
import { ApiError } from '../kit/errors';
import { shortened } from '../kit/validation';
import { auditedRecord, type RecordPath } from './records';
import type { AuditRoute } from './services';

const getHistory: AuditRoute = {
  method: 'get',
  path: '/api/v1/history/:module/:resource/:id',
  operation: 'getHistory',
  summary:
    'The events that shaped one record (as stored, with `opened` beside), each with the record as it was after it, and the erasures (`SubjectErased`) of the subjects whose personal data they hold',
  role: 'auditor',
  params: z.object({ module: z.string(), resource: z.string(), id: z.string() }),
  responses: {
    200: { description: 'History', schema: z.record(z.string(), z.unknown()) },
    404: { description: 'No such record' },
    422: { description: 'Invalid parameter' },
  },
  async handle({ params }, services) {
    const path = params as unknown as RecordPath;
    const record = auditedRecord(services.modules, path);
    const story = await recordStory({ ...services, events: services.storedEvents }, record);
    if (story.length === 0) {
      throw new ApiError('not_found', `${record.name} ${shortened(path.id)} has no history`);
    }
    // Each step's event as stored, with its opened values beside; its record folded from them opened.
    const { served, opened } = await servedAndOpened(story, services.subjectKeys);
    const steps = foldedSteps(services.catalog, record.projection, opened).map((step, index) => ({
      ...step,
      event: served[index] ?? step.event,
    }));
    return {
      status: 200,
      body: { data: { module: record.module, resource: path.resource, id: record.id, events: steps } },
    };
  },
};

/** Each record's history, event by event. */
export const historyRoutes = [getHistory];
