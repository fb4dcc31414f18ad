import path from 'node:path';
import { esmModule } from '../../src/api/esm';
import { lmsModule } from '../../src/api/lms';
import { createLogger } from '../../src/api/kit/logging';
import { loadConfig } from '../../src/config';
import { suiteCatalog } from '../../src/events/catalog';
import type { StoredEvent } from '../../src/events/envelope';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { verifyLog } from '../../src/events/verify';
import { openSuite } from '../../src/main';
import { createSeedContext } from '../../src/seed/context';
import { runSuiteCli } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';

/** `suite replay` copies what was recorded by a time (`--until`), or what was valid by one (`--valid-until`). */

jest.setTimeout(240_000);

/**
 * Two modules' demo data, written one after the other (as a backfill of each would be), each on its own
 * timeline: the log is not in business-time order.
 */
const MODULES = [esmModule, lmsModule];

let dir: string;
let scratch: ReturnType<typeof tempDir>;
let source: StoredEvent[];

async function eventsOf(file: string): Promise<StoredEvent[]> {
  const store = openSqliteEventStore(file);
  try {
    return await store.readAll({ after: 0, limit: 1_000_000 });
  } finally {
    await store.close();
  }
}

const replay = (name: string, ...args: string[]) =>
  runSuiteCli({}, 'replay', ...args, '--data-dir', path.join(scratch.dir, name), '--from', dir);

const copied = (name: string) => eventsOf(path.join(scratch.dir, name, 'events.db'));
const ids = (events: readonly StoredEvent[]) => events.map((event) => `${event.event_id} ${event.hash}`);

beforeAll(async () => {
  scratch = tempDir();
  dir = path.join(scratch.dir, 'source');
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_LOG_LEVEL: 'silent' });
  const suite = await openSuite(config, { logger: createLogger('silent'), modules: MODULES });
  for (const module of MODULES) {
    await module.seed?.(createSeedContext(suite.eventStore, suite.ids, `demo:${module.id}`));
  }
  await suite.close();
  source = await eventsOf(path.join(dir, 'events.db'));
});
afterAll(() => scratch.cleanup());

it('--until TIME copies the log as recorded by then: every event up to the last recorded by it', async () => {
  const middle = source[Math.floor(source.length / 2)] as StoredEvent;
  const time = middle.metadata.recorded_at as string;
  const by = source.findIndex((event) => Date.parse(event.metadata.recorded_at as string) > Date.parse(time));
  const expected = source.slice(0, by);
  const run = replay('recorded', '--until', time);
  expect(run.status).toBe(0);
  const last = (expected.at(-1) as StoredEvent).position;
  expect(run.stdout).toContain(
    `${expected.length} events copied, up to position ${last}, recorded by ${time}`,
  );
  const copy = await copied('recorded');
  expect(ids(copy)).toEqual(ids(expected));
  const store = openSqliteEventStore(path.join(scratch.dir, 'recorded', 'events.db'));
  expect((await verifyLog(store, suiteCatalog(MODULES))).ok).toBe(true);
  await store.close();
});

it('--valid-until TIME copies the events that occurred by then, each stream up to its first that occurred after', async () => {
  // A time the log is out of order around: an event that occurred by then follows one that did not.
  const occurred = (event: StoredEvent) => Date.parse(event.metadata.occurred_at);
  const later = source.findIndex(
    (event, index) => index > 0 && occurred(event) < occurred(source[index - 1] as StoredEvent),
  );
  expect(later).toBeGreaterThan(0);
  const time = (source[later] as StoredEvent).metadata.occurred_at;
  const stopped = new Set<string>();
  const expected = source.filter((event) => {
    if (stopped.has(event.stream)) return false;
    if (Date.parse(event.metadata.occurred_at) <= Date.parse(time)) return true;
    stopped.add(event.stream);
    return false;
  });
  const run = replay('valid', '--valid-until', time);
  expect(run.status).toBe(0);
  expect(run.stdout).toContain(`${expected.length} events copied, valid until ${time}`);
  const copy = await copied('valid');
  expect(ids(copy)).toEqual(ids(expected));
  for (const event of copy)
    expect(Date.parse(event.metadata.occurred_at)).toBeLessThanOrEqual(Date.parse(time));
  // Not a position cut: the event that occurred by then is copied, the one before it that did not is not.
  expect(ids(copy)).toContain(ids([source[later] as StoredEvent])[0]);
  expect(ids(copy)).not.toContain(ids([source[later - 1] as StoredEvent])[0]);
});

it('--since POS copies only the records written after it, each from its first event up to the cut', async () => {
  const since = (source[Math.floor(source.length * 0.9)] as StoredEvent).position;
  const until = (source.at(-1) as StoredEvent).position;
  const touched = new Set(source.filter((event) => event.position > since).map((event) => event.stream));
  const expected = source.filter((event) => touched.has(event.stream));
  expect(expected.length).toBeLessThan(source.length);
  const run = replay('window', '--until', String(until), '--since', String(since));
  expect(run.status).toBe(0);
  expect(run.stdout).toContain(`${expected.length} events copied, up to position ${until}`);
  expect(run.stdout).toContain(`the records written after position ${since}`);
  expect(ids(await copied('window'))).toEqual(ids(expected));
});

it('takes exactly one of --until and --valid-until', () => {
  const both = replay('both', '--until', '2026-07-14', '--valid-until', '2026-07-14');
  expect(both.status).not.toBe(0);
  expect(both.stderr).toMatch(/--until.*--valid-until/);
  const neither = replay('neither');
  expect(neither.status).not.toBe(0);
  expect(neither.stderr).toMatch(/--until.*--valid-until/);
});
