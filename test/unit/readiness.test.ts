import { createReadiness } from '../../src/readiness';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';
import type { ProjectionProgress } from '../../src/projections/runtime';
import type { ReadStore } from '../../src/projections/read-store';
import path from 'node:path';

const progressAt = (position: () => number): ProjectionProgress => ({
  position,
  waitFor: async () => undefined,
  status: () => 'ok',
  parkedCount: () => 0,
});

describe('readiness', () => {
  const { dir, cleanup } = tempDir();
  const store = openSqliteEventStore(path.join(dir, 'events.db'));
  afterAll(async () => {
    await store.close();
    cleanup();
  });

  it('is ready while the read models are within the lag limit, not ready past it', async () => {
    for (let thing = 1; thing <= 4; thing++) {
      await store.append(`test.thing-${thing}`, [{ type: 'ThingHappened', data: {}, schema_version: 1 }], {
        expectedRevision: 'no_stream',
        metadata: testMetadata,
      });
    }
    let projected = 0;
    const readiness = createReadiness({
      eventStore: store,
      projections: progressAt(() => projected),
      maxLag: 2,
    });
    expect(await readiness.check()).toEqual({
      status: 'not_ready',
      checks: {
        event_store: { status: 'ok', head_position: 4 },
        read_models: { status: 'lagging', max_lag_events: 2 },
      },
    });
    projected = 2;
    expect((await readiness.check()).checks.read_models).toEqual({
      status: 'ok',
      lag_events: 2,
      max_lag_events: 2,
    });
  });

  it('is not ready while a store fails, and says which', async () => {
    const unreachable = {
      checkpoints: () => Promise.reject(new Error('connection refused')),
    } as unknown as ReadStore;
    const report = await createReadiness({ eventStore: store, readStore: unreachable, maxLag: 10 }).check();
    expect(report.status).toBe('not_ready');
    expect(report.checks.read_store).toEqual({ status: 'failing', error: 'connection refused' });
    expect(report.checks.event_store?.status).toBe('ok');
  });
});
