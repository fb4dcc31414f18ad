import path from 'node:path';
import fc from 'fast-check';
import { copyLog } from '../../src/audit/replay';
import type { StoredEvent } from '../../src/events/envelope';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { testMetadata as metadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

/** `suite replay --since`: a recent window of the log, the records it touched copied whole up to the cut. */

const STREAMS = ['test.thing-1', 'test.thing-2', 'test.thing-3', 'test.thing-4'];

/** A log of one event per entry, each appended to the stream of that index; answers every event. */
async function logOf(file: string, streams: readonly number[]): Promise<StoredEvent[]> {
  const store = openSqliteEventStore(file);
  const revisions = new Map<string, number>();
  for (const [n, index] of streams.entries()) {
    const stream = STREAMS[index] as string;
    const revision = revisions.get(stream);
    await store.append(stream, [{ type: 'ThingChanged', data: { n }, schema_version: 1 }], {
      expectedRevision: revision ?? 'no_stream',
      metadata,
    });
    revisions.set(stream, (revision ?? -1) + 1);
  }
  const events = await store.readAll({ after: 0, limit: 10_000 });
  await store.close();
  return events;
}

/** Copies the window (since, until] of the log in `source` into a new store beside it; answers the copy's events. */
async function copiedWindow(source: string, since: number, until: number) {
  const from = openSqliteEventStore(source);
  const to = openSqliteEventStore(`${source}-copy-${since}-${until}.db`);
  try {
    const copied = await copyLog(from, to, { until, since });
    return { copied, events: await to.readAll({ after: 0, limit: 10_000 }) };
  } finally {
    await from.close();
    await to.close();
  }
}

const chainOf = (events: readonly StoredEvent[]) =>
  events.map(({ event_id, stream, revision, hash }) => ({ event_id, stream, revision, hash }));

it('copies the streams written in the window whole, up to the cut, in log order, with their hash chains', async () => {
  const { dir, cleanup } = tempDir();
  const source = path.join(dir, 'events.db');
  // Positions 1..7: thing-1, thing-2, thing-1, thing-3, thing-2, thing-4, thing-1.
  const log = await logOf(source, [0, 1, 0, 2, 1, 3, 0]);
  const { copied, events } = await copiedWindow(source, 4, 6);
  // The window (4, 6] holds thing-2 and thing-4: thing-2 from its first event, thing-1 and thing-3 left out.
  expect(chainOf(events)).toEqual(chainOf([log[1], log[4], log[5]] as StoredEvent[]));
  expect(copied).toEqual({ copied: 3, position: 6 });
  cleanup();
});

it('a window holds exactly the events up to the cut of each stream with an event in it', async () => {
  const { dir, cleanup } = tempDir();
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: STREAMS.length - 1 }), { minLength: 1, maxLength: 30 }),
      fc.nat(),
      fc.nat(),
      async (streams, a, b) => {
        const source = path.join(dir, `events-${++run}.db`);
        const log = await logOf(source, streams);
        const [since, until] = [a % (log.length + 1), b % (log.length + 1)].sort((x, y) => x - y) as [
          number,
          number,
        ];
        const touched = new Set(
          log.filter((event) => event.position > since && event.position <= until).map((e) => e.stream),
        );
        const expected = log.filter((event) => touched.has(event.stream) && event.position <= until);
        const { events } = await copiedWindow(source, since, until);
        expect(chainOf(events)).toEqual(chainOf(expected));
      },
    ),
    { numRuns: 40 },
  );
  cleanup();
});
