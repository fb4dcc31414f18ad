import path from 'node:path';
import { createLogger } from '../../src/api/kit/logging';
import { systemClock } from '../../src/clock';
import { createIdAllocator } from '../../src/commands/ids';
import { openEsdbEventStore } from '../../src/events/esdb-event-store';
import type { EventStore } from '../../src/events/event-store';
import type { ReadStore } from '../../src/projections/read-store';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import type { JobQueue } from '../../src/workers/job-queue';
import { followJobTriggers } from '../../src/workers/module-jobs';
import { esdbServerModel } from '../support/esdb-server-model';
import { recountModule } from '../support/recount-job';
import { testMetadata } from '../support/stored-event';
import { tempDir } from '../support/temp-dir';
import { suiteCatalog } from '../../src/events/catalog';

let cleanup: () => void;
let readStore: ReadStore;
/** EventStoreDB (its model): positions are offsets in its log, hundreds of bytes apart. */
let events: EventStore;
const queued: string[] = [];

beforeEach(() => {
  const made = tempDir();
  cleanup = made.cleanup;
  readStore = openSqliteReadStore(path.join(made.dir, 'read.db'));
  const server = esdbServerModel();
  events = openEsdbEventStore('esdb://model', () => server.connect());
  queued.length = 0;
});

afterEach(async () => {
  await events.close();
  await readStore.close();
  cleanup();
});

function triggers() {
  const jobs = {
    async enqueue(_name: string, _data: unknown, options?: { jobId?: string }) {
      queued.push(options?.jobId ?? '');
    },
  } as unknown as JobQueue;
  return followJobTriggers(
    [recountModule],
    {
      eventStore: events,
      storedEvents: events,
      changes: new Map(),
      readStore,
      runtime: {
        position: () => 0,
        waitFor: async () => undefined,
        status: () => 'ok',
        parkedCount: () => 0,
      },
      jobs,
      ids: createIdAllocator(events),
      clock: systemClock,
      logger: createLogger('silent'),
      catalog: suiteCatalog([]),
      log: { events, upcast: (event) => event },
    },
    createLogger('silent'),
  );
}

const appendOne = (type: string, revision: number) =>
  events.append('tests.group-1', [{ type, data: {}, schema_version: 1 }], {
    expectedRevision: revision < 0 ? 'no_stream' : revision,
    metadata: testMetadata,
  });

describe('job triggers', () => {
  it('save their checkpoint once jobs are queued, else after so many events read, however far apart their positions', async () => {
    for (let revision = -1; revision < 39; revision++) await appendOne('Left', revision);
    // Forty events that queue nothing, spread over more than the 10,000 events read before a save.
    expect(await events.headPosition()).toBeGreaterThan(10_000);
    const following = triggers();
    await following.catchUp();
    expect(queued).toEqual([]);
    expect((await readStore.checkpoints()).get('jobs')).toBeUndefined();

    const { events: joined } = await appendOne('Joined', 39);
    await following.catchUp();
    await following.stop();

    expect(queued).toHaveLength(1);
    expect((await readStore.checkpoints()).get('jobs')).toBe(joined[0]!.position);
  });
});
