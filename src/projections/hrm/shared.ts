import { z } from 'zod';
import type { StoredEvent } from '../../events/envelope';
import type { HrmEvent, HrmEventOf } from '../../events/hrm';
import { hrmStream, type HrmCategory } from '../../events/hrm/streams';
import { idFromStream, type DocumentProjection } from '../projection';

export const intOrNull = z.number().int().nullable();
export const textOrNull = z.string().nullable();
export const timestamp = z.string().meta({ description: 'ISO 8601 UTC, e.g. 2026-11-21T09:30:00Z' });
export const date = z.string().meta({ description: 'YYYY-MM-DD' });
export const enumText = (values: readonly string[]) => z.string().meta({ enum: [...values] });

export type Event = StoredEvent & HrmEvent;

export { idFromStream };

type StatusChange = { status: string; changed_on: string };

/** Every HR record has a stream of its own, `hrm.<category>-<id>`. */
export const ownStream = (category: HrmCategory) => (id: unknown) => hrmStream(category, Number(id));

/**
 * The read model of a record that is added once and then changes status in its own stream (see
 * `commands/hrm/lifecycle.ts`): `build` makes the document from the added event, and `onStatus`
 * sets the fields a status change fills in besides `status`.
 */
export function lifecycleProjection<Doc extends { status: string }, Added extends HrmEvent['type']>(spec: {
  collection: string;
  category: HrmCategory;
  added: Added;
  changed: HrmEvent['type'];
  /** `created` is the time of the added event. */
  build: (data: HrmEventOf<Added>['data'], created: string) => Doc;
  onStatus?: (doc: Doc, change: StatusChange) => Partial<Doc>;
}): DocumentProjection<Doc> {
  return {
    collection: spec.collection,
    handles: [spec.added, spec.changed],
    documentId: idFromStream,
    stream: ownStream(spec.category),
    evolve(doc, stored) {
      if (stored.type === spec.added) {
        const build = spec.build as (data: unknown, created: string) => Doc;
        return build(stored.data, stored.metadata.occurred_at);
      }
      if (!doc) return null;
      const change = stored.data as StatusChange;
      return { ...doc, status: change.status, ...spec.onStatus?.(doc, change) };
    },
  };
}
