import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  getSQLiteEventStore,
  readMessagesBatch,
  sqliteConnection,
  type SQLiteEventStore,
} from '@event-driven-io/emmett-sqlite';
import type { EventMetadata } from '../src/events/envelope';
import type { PendingEvent } from '../src/events/event-store';
import { openSqliteEventStore } from '../src/events/sqlite-event-store';
import { flags, machine, median, numberFlag, ratio, round, table, writeSection } from './support';

/**
 * Appends/s and full-log read events/s of our SQLite event store and Emmett's, same work, same
 * durability. Usage: tsx bench/event-store.ts [--seconds 5] [--read-events 100000] [--runs 3]
 */
const options = flags();
const SECONDS = numberFlag(options, 'seconds', 5);
const READ_EVENTS = numberFlag(options, 'read-events', 100_000);
const RUNS = numberFlag(options, 'runs', 3);
const READ_PAGE = 1000;

/** One contender, behind the few operations the benchmark needs. */
interface Store {
  /**
   * Appends to `stream` at `revision` (-1: the stream must not exist); answers the new revision, or
   * null when the store failed the append (counted, the writer resumes from the stream's revision).
   */
  append(stream: string, events: PendingEvent[], revision: number): Promise<number | null>;
  revision(stream: string): Promise<number>;
  /** Reads the whole log in pages; answers the number of events read. */
  readAll(): Promise<number>;
  close(): Promise<void>;
}

interface Contender {
  name: string;
  open(file: string): Store;
}

const metadata = (): EventMetadata => ({
  actor: 'user-1042',
  request_id: 'req-7f3c2a',
  correlation_id: 'req-7f3c2a',
  causation_id: null,
  occurred_at: new Date().toISOString(),
});

/** A RequestSubmitted-sized event (about 450 bytes of JSON), as the service desk writes. */
function event(index: number): PendingEvent {
  return {
    type: 'RequestSubmitted',
    schema_version: 1,
    data: {
      id: index,
      ref: `REQ-${String(index).padStart(6, '0')}`,
      title: 'Replacement laptop - screen flickering and hinge cracked',
      service_id: 3,
      department_id: 1,
      requester_id: 1000 + (index % 400),
      status: 'Open',
      priority: 'Medium',
      form_data: '{"model":"ThinkPad T14","reason":"Screen flickers and the hinge is cracked"}',
      created: '2026-11-20T09:14:00.000Z',
      response_by: '2026-11-20T17:14:00.000Z',
      resolution_by: '2026-11-23T09:14:00.000Z',
    },
  };
}

const ours: Contender = {
  name: 'suite (ours)',
  open(file) {
    const store = openSqliteEventStore(file);
    return {
      async append(stream, events, revision) {
        const result = await store.append(stream, events, {
          expectedRevision: revision < 0 ? 'no_stream' : revision,
          metadata: metadata(),
        });
        return (result.events[result.events.length - 1] as { revision: number }).revision;
      },
      async readAll() {
        let count = 0;
        for (let after = 0; ;) {
          const page = await store.readAll({ after, limit: READ_PAGE });
          count += page.length;
          if (page.length < READ_PAGE) return count;
          after = (page[page.length - 1] as { position: number }).position;
        }
      },
      async revision(stream) {
        const events = await store.readStream(stream);
        return events.length - 1;
      },
      close: () => store.close(),
    };
  },
};

/**
 * Emmett 0.38.5 cannot run appends concurrently: one store instance shares one connection and its
 * transaction nesting between them ("Database is closed", appends swallowed into a neighbour's
 * transaction), and one instance per writer fails with SQLITE_BUSY. So its writers queue: one append at
 * a time, as its own later single-writer pool does.
 */
const emmett: Contender = {
  name: 'Emmett SQLite 0.38.5',
  open(file) {
    const store: SQLiteEventStore = getSQLiteEventStore({ fileName: file });
    let queue: Promise<unknown> = Promise.resolve();
    // Every operation queues: one running alongside another would close the connection under it.
    const serialized = <T>(operation: () => Promise<T>): Promise<T> => {
      const result = queue.then(operation);
      queue = result.catch(() => undefined);
      return result;
    };
    return {
      append(stream, events, revision) {
        const run = () =>
          store.appendToStream(
            stream,
            events.map((pending) => ({
              type: pending.type,
              data: pending.data as Record<string, unknown>,
              metadata: metadata(),
            })),
            { expectedStreamVersion: BigInt(revision + 1) },
          );
        const result = serialized(run);
        // Emmett's stream versions count events (first is 1); ours are revisions (first is 0).
        return result.then(
          (appended) => Number(appended.nextExpectedStreamVersion) - 1,
          (error: unknown) => {
            // Seen: "SQLITE_BUSY: cannot commit transaction - SQL statements in progress" (its RETURNING
            // statements are finalized asynchronously, sometimes after its COMMIT).
            failures.set(String(error), (failures.get(String(error)) ?? 0) + 1);
            return null;
          },
        );
      },
      async revision(stream) {
        const read = await serialized(() => store.readStream(stream));
        return Number(read.currentStreamVersion) - 1;
      },
      async readAll() {
        const connection = sqliteConnection({ fileName: file });
        let count = 0;
        try {
          for (let after = 0n; ;) {
            const batch = await readMessagesBatch(connection, { after, batchSize: READ_PAGE });
            count += batch.messages.length;
            if (!batch.areEventsLeft) return count;
            after = batch.currentGlobalPosition;
          }
        } finally {
          connection.close();
        }
      },
      async close() {
        await queue;
      },
    };
  },
};

/** Appends a store failed, by error: reported with the figures. */
const failures = new Map<string, number>();

interface Scenario {
  name: string;
  writers: number;
  batch: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'single-event appends, 1 writer', writers: 1, batch: 1 },
  { name: 'single-event appends, 64 concurrent writers', writers: 64, batch: 1 },
  { name: '100-event batch appends, 1 writer', writers: 1, batch: 100 },
  { name: '100-event batch appends, 64 concurrent writers', writers: 64, batch: 100 },
];

/** Each writer appends to its own stream, checking the expected revision, until the time is up. */
async function appendsPerSecond(store: Store, scenario: Scenario): Promise<number> {
  const events = Array.from({ length: scenario.batch }, (_, index) => event(index));
  const deadline = performance.now() + SECONDS * 1000;
  let appended = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: scenario.writers }, async (_, writer) => {
      for (let revision = -1; performance.now() < deadline;) {
        const stream = `bench.stream-${writer}`;
        const next = await store.append(stream, events, revision);
        if (next === null) {
          revision = await store.revision(stream);
          continue;
        }
        if (next !== revision + scenario.batch) throw new Error(`revision ${next} after ${revision}`);
        revision = next;
        appended += scenario.batch;
      }
    }),
  );
  return appended / ((performance.now() - started) / 1000);
}

async function fill(store: Store, count: number): Promise<void> {
  const events = Array.from({ length: 100 }, (_, index) => event(index));
  const streams = Math.max(1, Math.ceil(count / 100 / 100));
  const appendsPerStream = Math.ceil(count / streams / 100);
  await Promise.all(
    Array.from({ length: streams }, async (_, index) => {
      const stream = `bench.read-${index}`;
      for (let revision = -1; revision + 1 < appendsPerStream * 100;) {
        revision = (await store.append(stream, events, revision)) ?? (await store.revision(stream));
      }
    }),
  );
}

async function readPerSecond(store: Store): Promise<{ perSecond: number; count: number }> {
  const started = performance.now();
  const count = await store.readAll();
  return { perSecond: count / ((performance.now() - started) / 1000), count };
}

async function durabilityOfEmmett(file: string): Promise<string> {
  const connection = sqliteConnection({ fileName: file });
  try {
    // Emmett's connection sets only journal_mode; synchronous is the build's default.
    const journal = await connection.querySingle<{ journal_mode: string }>('PRAGMA journal_mode');
    const sync = await connection.querySingle<{ synchronous: number }>('PRAGMA synchronous');
    const names = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];
    return `journal_mode=${journal?.journal_mode}, synchronous=${names[sync?.synchronous ?? -1]}`;
  } finally {
    connection.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'suite-bench-es-'));
  const figures = new Map<string, { ours: number[]; emmett: number[] }>();
  const record = (name: string, contender: Contender, value: number) => {
    const entry = figures.get(name) ?? { ours: [], emmett: [] };
    (contender === ours ? entry.ours : entry.emmett).push(value);
    figures.set(name, entry);
  };
  let readCount = 0;
  let emmettDurability = '';
  try {
    for (let run = 0; run < RUNS; run++) {
      const runDir = path.join(dir, `run-${run}`);
      mkdirSync(runDir);
      const order = run % 2 === 0 ? [ours, emmett] : [emmett, ours];
      for (const scenario of SCENARIOS) {
        for (const contender of order) {
          const file = path.join(
            runDir,
            `${contender === ours ? 'ours' : 'emmett'}-${scenario.writers}-${scenario.batch}.db`,
          );
          const store = contender.open(file);
          const perSecond = await appendsPerSecond(store, scenario);
          await store.close();
          if (contender === emmett && !emmettDurability) emmettDurability = await durabilityOfEmmett(file);
          record(scenario.name, contender, perSecond);
          console.log(`run ${run + 1} ${contender.name}: ${scenario.name}: ${round(perSecond)} events/s`);
        }
      }
      for (const contender of order) {
        const file = path.join(runDir, `${contender === ours ? 'ours' : 'emmett'}-read.db`);
        const writer = contender.open(file);
        await fill(writer, READ_EVENTS);
        await writer.close();
        const reader = contender.open(file);
        const { perSecond, count } = await readPerSecond(reader);
        await reader.close();
        readCount = count;
        record('full-log read', contender, perSecond);
        console.log(
          `run ${run + 1} ${contender.name}: full-log read of ${count}: ${round(perSecond)} events/s`,
        );
      }
      rmSync(runDir, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  report(figures, readCount, emmettDurability);
}

function report(
  figures: Map<string, { ours: number[]; emmett: number[] }>,
  readCount: number,
  emmettDurability: string,
): void {
  const rows = [...figures].map(([name, { ours: mine, emmett: theirs }]) => [
    name === 'full-log read' ? `full-log read (${round(readCount)} events, pages of ${READ_PAGE})` : name,
    round(median(mine)),
    round(median(theirs)),
    `**${ratio(median(mine), median(theirs))}**`,
  ]);
  const body = `## Event store: ours against Emmett's SQLite event store

Reproduce with \`npm run bench:event-store\` (\`tsx bench/event-store.ts --seconds ${SECONDS} --read-events ${READ_EVENTS}\`).
Both stores are opened directly in one process, on files in the same temp directory; each figure is
the median of ${RUNS} runs of ${SECONDS} s per scenario, the two stores alternating (which goes first
flips every run). Events are RequestSubmitted-sized (about 450 bytes of data plus metadata); each writer
appends to its own stream with the expected revision checked. Machine: ${machine()}.

| events/s | suite (ours) | Emmett SQLite 0.38.5 | ours / Emmett |
|---|---|---|---|
${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}

Durability, the same for both: every acknowledged append is fsynced.
- Ours (\`src/events/sqlite-event-store.ts\`): WAL, \`synchronous=NORMAL\` for the commit, then an
  fsync of the WAL file on the thread pool before any append of the group commit is acknowledged, i.e.
  \`synchronous=FULL\`'s guarantee for what is acknowledged. Appends arriving in the same event-loop
  turn share one transaction and one fsync (group commit).
- Emmett (\`@event-driven-io/emmett-sqlite\` 0.38.5 on \`sqlite3\` 5): ${emmettDurability || 'WAL, synchronous=FULL'}
  (it sets only \`journal_mode = WAL\`; FULL is node-sqlite3's build default), so SQLite fsyncs the WAL
  at every commit. It opens and closes a connection per operation (closing the last connection
  checkpoints the WAL), runs one transaction per append, and cannot run appends concurrently (see
  \`bench/event-store.ts\`): its 64 writers queue on one store.

Appends that failed (not counted in the figures): ${
    failures.size === 0
      ? 'none'
      : [...failures].map(([error, count]) => `Emmett ${count} x \`${error}\``).join('; ')
  }.

Target: ahead on every figure, >= 20x with 64 concurrent writers.`;
  writeSection('event-store', body);
  console.log(`\n${table(['events/s', 'ours', 'Emmett', 'ratio'], rows)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
