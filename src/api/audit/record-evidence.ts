import { z } from 'zod';
import { EvidenceError } from '../../log-proofs/evidence';
import { recordEvidenceBundle } from '../../log-proofs/record-evidence';
import { ApiError } from '../kit/errors';
import { integerParameter } from '../kit/validation';
import { keysToDisclose, logDisclosed, treeOf } from './proofs';
import { auditedRecord, type RecordPath } from './records';
import type { AuditRoute } from './services';

const RecordEvidenceQuery = z.strictObject({
  tree_size: integerParameter({ min: 1 })
    .optional()
    .meta({ description: 'The size of a kept checkpoint (default: the latest)' }),
  disclose: z.string().optional().meta({
    description:
      '`personal`: add the keys of the subjects whose personal values the events hold (`disclosed`; or that they were erased), so that the verifier opens them',
  }),
});

// The events as stored (their personal data sealed), which their hashes cover: the bundle checks offline.
const getRecordEvidence: AuditRoute<z.infer<typeof RecordEvidenceQuery>> = {
  method: 'get',
  path: '/api/v1/evidence/records/:module/:resource/:id',
  operation: 'getRecordEvidence',
  summary:
    'The evidence of a record\u2019s story, as `suite audit prove --record` writes it: every event of it (its own, its proposals\u2019, the erasures of its subjects) as stored, each with its inclusion proof against one signed checkpoint, and that checkpoint (`suite audit verify-bundle` checks it offline and prints the record folded from them). Waits up to 2 s for a checkpoint that covers the whole story; the events it still does not cover are left out and counted in `not_yet_covered`',
  role: 'auditor',
  params: z.object({ module: z.string(), resource: z.string(), id: z.string() }),
  query: RecordEvidenceQuery,
  responses: {
    200: {
      description: 'The record evidence bundle (`suite-record-evidence/1`)',
      schema: z.record(z.string(), z.unknown()),
    },
    404: {
      description:
        'No such record, no checkpoint of that size kept, no event of the record covered by a checkpoint yet, or a record named by a log position (prove its event with /api/v1/evidence)',
    },
    422: { description: 'Invalid parameter' },
    503: {
      description: 'No auditor token is configured, or this process keeps no tree over the log (read-only)',
    },
  },
  async handle({ params, query, caller }, services) {
    const keys = keysToDisclose(query.disclose, services);
    const store = treeOf(services);
    const path = params as unknown as RecordPath;
    const record = auditedRecord(services.modules, path);
    try {
      const bundle = await recordEvidenceBundle(services, store, {
        record,
        resource: path.resource,
        treeSize: query.tree_size,
        disclose: keys,
      });
      logDisclosed(services, caller, bundle.disclosed, {
        record: `${record.module}/${path.resource}/${path.id}`,
      });
      return { status: 200, body: bundle };
    } catch (error) {
      if (error instanceof EvidenceError) throw new ApiError('not_found', error.message);
      throw error;
    }
  },
};

/** The evidence of whole records' stories. */
export const recordEvidenceRoutes = [getRecordEvidence];
