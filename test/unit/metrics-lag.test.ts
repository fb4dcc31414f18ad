import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import type { StoredEvent } from '../../src/events/envelope';
import { Registry } from 'prom-client';
import { createMetrics } from '../../src/metrics';
import { esdbServerModel } from '../support/esdb-server-model';
import { testMetadata } from '../support/stored-event';

describe('lag metrics', () => {
  it('count the events past the read models, not the distance between positions (offsets on EventStoreDB)', async () => {
    const server = esdbServerModel();
    const store = openEsdbEventStore('esdb://model', () => server.connect());
    try {
      const appended: StoredEvent[] = [];
      for (let thing = 1; thing <= 5; thing++) {
        const { events } = await store.append(
          `test.thing-${thing}`,
          [{ type: 'ThingHappened', data: { text: 'x'.repeat(100) }, schema_version: 1 }],
          { expectedRevision: 'no_stream', metadata: testMetadata },
        );
        appended.push(...events);
      }
      const projected = (appended[1] as StoredEvent).position;
      const registry = createMetrics(new Registry(), {
        eventStore: store,
        projections: {
          position: () => projected,
          waitFor: async () => undefined,
          status: () => 'ok',
          parkedCount: () => 0,
        },
        relayPosition: () => projected,
      });
      const gauge = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value;
      // The positions are far apart: their difference is no count of events.
      expect((appended[4] as StoredEvent).position - projected).toBeGreaterThan(3);
      expect(await gauge('suite_projector_lag_events')).toBe(3);
      expect(await gauge('suite_relay_lag_events')).toBe(3);
    } finally {
      await store.close();
    }
  });
});
