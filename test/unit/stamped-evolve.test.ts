import type { StoredEvent } from '../../src/events/envelope';
import type { DocumentProjection } from '../../src/projections/projection';
import type { Document } from '../../src/projections/read-store';
import { evolveStamped } from '../../src/projections/stamped-evolve';
import { storedEvent, testMetadata } from '../support/stored-event';

/** Counts things: `ThingAdded` makes one, `ThingCounted` adds to it, `ThingIgnored` leaves it as it is. */
const counter: DocumentProjection = {
  collection: 'test.things',
  handles: ['ThingAdded', 'ThingCounted', 'ThingIgnored'],
  documentId: () => 1,
  evolve(doc, event) {
    if (event.type === 'ThingAdded') return { id: 1, count: 0 };
    if (!doc || event.type === 'ThingIgnored') return doc;
    return { ...doc, count: (doc.count as number) + 1 };
  },
};

const event = (type: string, times: { recorded_at?: string; occurred_at: string }): StoredEvent =>
  storedEvent('test.thing-1', 0, { type, metadata: { ...testMetadata, ...times } });

const fold = (projection: DocumentProjection, events: StoredEvent[]) =>
  events.reduce<Document | null>((doc, next) => evolveStamped(projection, doc, next), null);

describe('evolveStamped', () => {
  const added = event('ThingAdded', {
    occurred_at: '2026-11-01T08:00:00Z',
    recorded_at: '2026-11-02T08:00:00Z',
  });
  const counted = event('ThingCounted', {
    occurred_at: '2026-11-01T09:00:00Z',
    recorded_at: '2026-11-03T08:00:00Z',
  });

  it('given the event that made a document, stamps both times with its recording time', () => {
    expect(fold(counter, [added])).toEqual({
      id: 1,
      count: 0,
      created_at: '2026-11-02T08:00:00Z',
      updated_at: '2026-11-02T08:00:00Z',
    });
  });

  it('given a change, keeps created_at and moves updated_at to the change', () => {
    expect(fold(counter, [added, counted])).toMatchObject({
      count: 1,
      created_at: '2026-11-02T08:00:00Z',
      updated_at: '2026-11-03T08:00:00Z',
    });
  });

  it('given an event that leaves the document as it was, leaves its times too', () => {
    const ignored = event('ThingIgnored', {
      occurred_at: '2026-11-05T08:00:00Z',
      recorded_at: '2026-11-05T08:00:00Z',
    });
    expect(fold(counter, [added, counted, ignored])).toEqual(fold(counter, [added, counted]));
  });

  it('given events recorded before the log kept recording times, stamps their business time', () => {
    const old = event('ThingAdded', { occurred_at: '2026-01-01T08:00:00Z' });
    expect(fold(counter, [old])).toMatchObject({
      created_at: '2026-01-01T08:00:00Z',
      updated_at: '2026-01-01T08:00:00Z',
    });
  });

  it('keeps a created_at the projection sets, and the updated_at of a projection that keeps its own', () => {
    const own: DocumentProjection = {
      ...counter,
      ownUpdatedAt: true,
      evolve: (doc, next) => ({
        ...counter.evolve(doc, next),
        created_at: doc?.created_at ?? next.metadata.occurred_at,
        updated_at: next.metadata.occurred_at,
      }),
    };
    expect(fold(own, [added, counted])).toMatchObject({
      created_at: '2026-11-01T08:00:00Z',
      updated_at: '2026-11-01T09:00:00Z',
    });
  });

  it('gives the same times when the same events are folded again (a rebuild, the refold after an erasure)', () => {
    expect(fold(counter, [added, counted])).toEqual(fold(counter, [added, counted]));
  });

  it('stamps nothing on a document the projection deletes', () => {
    const deleting: DocumentProjection = { ...counter, evolve: () => null };
    expect(fold(deleting, [added])).toBeNull();
  });
});
