import path from 'node:path';
import type { EventMetadata } from '../../src/events/envelope';
import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import type { EventStore } from '../../src/events/event-store';
import { positionRecordedBy } from '../../src/events/recording-time';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { esdbServerModel } from '../support/esdb-server-model';
import { testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';

/**
 * The cut at a recording time: the last position up to which every event was recorded by then, on a
 * log of dense positions (SQLite) and of sparse ones (EventStoreDB's commit positions).
 */

const TIMES = ['2026-07-01', '2026-07-02', '2026-07-02', '2026-07-05', '2026-07-09'].map(
  (day) => `${day}T12:00:00.000Z`,
);

async function recordedAt(store: EventStore, times: readonly (string | undefined)[]): Promise<number[]> {
  const positions: number[] = [];
  for (const [index, recorded] of times.entries()) {
    const metadata: EventMetadata = { ...testMetadata, ...(recorded && { recorded_at: recorded }) };
    const { events } = await store.append(
      `test.thing-${index}`,
      [{ type: 'ThingMade', data: {}, schema_version: 1 }],
      { expectedRevision: 'no_stream', metadata, copy: true },
    );
    positions.push((events[0] as { position: number }).position);
  }
  return positions;
}

describe.each([
  [
    'SQLite',
    () => {
      const dir = tempDir();
      const store = openSqliteEventStore(path.join(dir.dir, 'events.db'));
      return { store, close: async () => (await store.close(), dir.cleanup()) };
    },
  ],
  [
    'EventStoreDB model',
    () => {
      const server = esdbServerModel();
      const store = openEsdbEventStore('esdb://model', () => server.connect());
      return { store, close: () => store.close() };
    },
  ],
])('positionRecordedBy on %s', (_name, open) => {
  it('cuts after the last event recorded by the time, 0 before the first, the head after the last', async () => {
    const { store, close } = open();
    try {
      // Two events from before the log kept recording times: they count as recorded before any.
      const positions = await recordedAt(store, [undefined, undefined, ...TIMES]);
      const at = (time: string) => positionRecordedBy(store, new Date(time));
      expect(await at('2026-06-30T00:00:00Z')).toBe(positions[1]);
      expect(await at('2026-07-01T12:00:00Z')).toBe(positions[2]);
      expect(await at('2026-07-02T12:00:00Z')).toBe(positions[4]);
      expect(await at('2026-07-04T00:00:00Z')).toBe(positions[4]);
      expect(await at('2026-07-09T12:00:00Z')).toBe(positions[6]);
      expect(await at('2999-01-01T00:00:00Z')).toBe(positions[6]);
    } finally {
      await close();
    }
  });

  it('answers 0 on an empty log and before the first recorded event', async () => {
    const { store, close } = open();
    try {
      expect(await positionRecordedBy(store, new Date())).toBe(0);
      await recordedAt(store, TIMES);
      expect(await positionRecordedBy(store, new Date('2026-06-30T00:00:00Z'))).toBe(0);
    } finally {
      await close();
    }
  });
});
