import { z } from 'zod';

/** One change of one record (`src/changes/change.ts`), as the change feed and webhooks carry it. */
export const ChangeSchema = z
  .object({
    cursor: z
      .string()
      .meta({ description: 'Where a reader that has taken this change goes on from (opaque)' }),
    resource: z.string().meta({ description: 'The resource, as its path names it (`requests`)' }),
    id: z.union([z.string(), z.number().int()]).meta({ description: 'The record\u2019s id' }),
    op: z.enum(['upsert', 'delete', 'erase']).meta({
      description:
        '`upsert`: the record was written (created or changed); `delete`: it is gone; `erase`: a data subject whose personal data it held was erased: drop every copy of the record (backups, history), then take the `upsert` that follows with its erased values',
    }),
    position: z.number().int().meta({ description: 'The log position of the event that made the change' }),
    occurred_at: z.string().meta({ description: 'When the change occurred (business time)' }),
    record: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'The record as GET /api/v1/{resource}/{id} served it after the change; absent for delete and erase',
    }),
  })
  .meta({ id: 'Change' });

export const ChangePageSchema = z
  .object({
    data: z.array(ChangeSchema),
    meta: z.object({
      next: z.string().meta({ description: 'The cursor to read on from (`after`), also when data is empty' }),
      has_more: z.boolean().meta({ description: 'More changes wait after `next`: read again at once' }),
    }),
  })
  .meta({ id: 'ChangePage' });

/** A webhook's body: the Standard Webhooks payload around one change. */
export const WebhookPayloadSchema = z
  .object({
    type: z.string().meta({ description: '`<module>.<resource>.<op>`: `esm.requests.upsert`' }),
    timestamp: z.string().meta({ description: 'When the change occurred' }),
    data: ChangeSchema,
  })
  .meta({ id: 'WebhookPayload' });
