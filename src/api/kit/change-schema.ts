import { z } from 'zod';

/** One change of one record (`src/changes/change.ts`), as webhooks carry it. */
export const ChangeSchema = z
  .object({
    cursor: z.string().meta({ description: 'Opaque: where a reader that has seen this change goes on from' }),
    resource: z.string().meta({ description: "The resource's path (`requests`)" }),
    id: z.union([z.string(), z.number().int()]),
    op: z.enum(['upsert', 'delete', 'erase']).meta({
      description: 'Written (created or changed), deleted, or a data subject of it erased',
    }),
    position: z.number().int().meta({ description: 'The log position of the event that made the change' }),
    occurred_at: z.string(),
    record: z.record(z.string(), z.unknown()).optional().meta({
      description: 'The record as its read endpoint served it after the change; absent for delete and erase',
    }),
  })
  .meta({ id: 'Change' });

/** A webhook's body: the Standard Webhooks payload around one change. */
export const WebhookPayloadSchema = z
  .object({
    type: z.string().meta({ description: '`<module>.<resource>.<op>`: `esm.requests.upsert`' }),
    timestamp: z.string().meta({ description: 'When the change occurred' }),
    data: ChangeSchema,
  })
  .meta({ id: 'WebhookPayload' });
