import { proposalStream, proposalTarget } from '../approvals';
import type { SuiteCatalog } from '../events/catalog';
import { streamModule, type StoredEvent } from '../events/envelope';
import { sealedKeyIds } from '../privacy/personal-data';
import { documentIdOf, type RecordRef } from './record-history';

/** An event that is not part of a record's story, by its place in the list, and why. */
export interface Stranger {
  at: number;
  reason: string;
}

const named = (record: RecordRef) => record.target.replace(' ', '/');

/** Whether an event is one of the record's own: in its stream, or folded into it by its projection. */
function isOwn(catalog: SuiteCatalog, record: RecordRef, event: StoredEvent): boolean {
  const { stream } = record.projection;
  if (stream) return event.stream === stream(record.id);
  return (
    record.projection.handles.includes(event.type) &&
    String(documentIdOf(catalog, record.projection, event)) === String(record.id)
  );
}

const isProposalEvent = (event: StoredEvent) => streamModule(event.stream) === 'approvals';
const isErasure = (event: StoredEvent) =>
  streamModule(event.stream) === 'privacy' && event.type === 'SubjectErased';

/**
 * The first event that `recordStory` would not have gathered for the record: every event must be one
 * of its own, of a proposal about it (one its events were applied in, or one that named it), or the
 * erasure of a subject whose personal data the others hold. Nothing when all belong, and at least one
 * is the record's own; a list checked this way is a part of the record's story, not proof that it is
 * the whole of it.
 */
export function strangerInStory(
  catalog: SuiteCatalog,
  record: RecordRef,
  events: readonly StoredEvent[],
): Stranger | undefined {
  const own = events.map((event) => isOwn(catalog, record, event));
  if (!own.includes(true)) return { at: 0, reason: `none of the events is one of ${named(record)}'s own` };
  const proposals = new Set<string>();
  events.forEach((event, at) => {
    const applied = event.metadata.proposal_id;
    if (own[at] && applied) proposals.add(proposalStream(applied));
    if (event.type !== 'ChangeProposed' || !isProposalEvent(event)) return;
    const { module, path } = event.data as { module: string; path: string };
    if (proposalTarget(module, path) === record.target) proposals.add(event.stream);
  });
  const subjects = new Set(
    events
      .filter((event) => !isErasure(event))
      .flatMap((event) => [...(sealedKeyIds(event.data)?.keys() ?? [])]),
  );
  for (const [at, event] of events.entries()) {
    if (own[at]) continue;
    if (isProposalEvent(event)) {
      if (!proposals.has(event.stream)) {
        return {
          at,
          reason: `it is of a proposal that neither named ${named(record)} nor was applied to it`,
        };
      }
    } else if (isErasure(event)) {
      if (!subjects.has((event.data as { subject: string }).subject)) {
        return { at, reason: 'it erased a subject whose personal data none of the other events holds' };
      }
    } else return { at, reason: `it is not one of ${named(record)}'s events` };
  }
  return undefined;
}
