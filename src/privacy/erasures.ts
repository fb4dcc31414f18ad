import { z } from 'zod';
import { isoTimestamp } from '../clock';
import type { CommandContext } from '../commands/context';
import type { Decider } from '../commands/decider';
import { DomainError } from '../commands/errors';
import { moduleCommands } from '../commands/module-commands';
import { defineEvent, eventCatalog, type EventsOf } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import type { DocumentProjection, Projector } from '../projections/projection';
import { idFromStream } from '../projections/projection';
import type { CollectionDefinition } from '../projections/read-store';

/** A data subject: the stream of the person's own record, `hrm.employee-42` (see docs/PERSONAL-DATA.md). */
export const SUBJECT = /^[a-z]+\.[a-z]+(?:-[a-z0-9_]+)+$/;
export const MAX_REASON = 500;

export const erasureEvents = [
  defineEvent(
    'SubjectErased',
    z.object({
      id: z.number().int().positive(),
      subject: z.string().regex(SUBJECT),
      reason: z.string().min(1).max(MAX_REASON),
      erased_on: z.string(),
    }),
  ),
] as const;

type ErasureEvent = EventsOf<typeof erasureEvents>;
export const ERASURE_CATEGORY = 'privacy.erasure';

export const ERASURES_COLLECTION = 'privacy.erasures';

export type ErasureRecord = {
  id: number;
  subject: string;
  reason: string;
  erased_at: string;
  /** Who erased it: the actor of the command (`os:<user>` from the CLI, the caller on the audit API). */
  erased_by: string;
};

export const erasuresCollection: CollectionDefinition = {
  name: ERASURES_COLLECTION,
  idKind: 'integer',
  searchFields: [],
  filterFields: ['subject'],
};

const erasuresProjection: DocumentProjection<ErasureRecord> = {
  collection: ERASURES_COLLECTION,
  handles: ['SubjectErased'],
  documentId: idFromStream,
  evolve(_doc, stored) {
    const { data, metadata } = stored as StoredEvent & ErasureEvent;
    return {
      id: data.id,
      subject: data.subject,
      reason: data.reason,
      erased_at: data.erased_on,
      erased_by: metadata.actor,
    };
  },
};

const erasureDecider: Decider<
  { id: number; subject: string; reason: string; at: string },
  boolean,
  ErasureEvent
> = {
  initialState: () => false,
  evolve: () => true,
  decide({ id, subject, reason, at }, recorded) {
    if (recorded) throw new DomainError('already_exists', `Erasure ${id} is recorded already`);
    return [{ type: 'SubjectErased', data: { id, subject, reason, erased_on: at } }];
  },
};

const { create } = moduleCommands(eventCatalog(erasureEvents));

/** Records that a subject is erased (the key itself is deleted by `eraseSubject`). */
export function recordErasure(context: CommandContext, subject: string, reason: string) {
  return create(context, ERASURE_CATEGORY, erasureDecider, (id) => ({
    id,
    subject,
    reason,
    at: isoTimestamp(context.clock.now()),
  }));
}

export const privacyCapability = {
  id: 'privacy',
  events: erasureEvents,
  projector: { name: 'privacy', version: 2, projections: [erasuresProjection] } as unknown as Projector,
  collections: [erasuresCollection],
};
