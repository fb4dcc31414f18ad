import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { DATA_FILES } from '../../src/data-files';
import { EVENTS_SCHEMA } from '../../src/events/events-schema';
import { currentVersion } from '../../src/sqlite-schema';
import {
  auditor,
  close,
  open,
  PERSONAL_MODULES,
  readerOf,
  requestLog,
  type RequestLog,
} from '../support/erasure-model-suite';
import { recordReads, type RecordedReads } from '../support/recorded-reads';
import { tempDir } from '../support/temp-dir';

/**
 * A data directory written by the build before schema versions (test/fixtures/base-data, see its
 * README): records of every module that holds personal data, an API key, an approval policy and a
 * proposal, and an erased subject. This build opens it as it is.
 */

jest.setTimeout(120_000);

const FIXTURE = path.resolve(__dirname, '../fixtures/base-data');
const recorded = JSON.parse(readFileSync(path.join(FIXTURE, 'reads.json'), 'utf8')) as {
  collections: string[];
  reads: RecordedReads;
};

/** The fixture's files in `dir`, the SQLite files unpacked. */
function copyFixture(dir: string): void {
  const from = path.join(FIXTURE, 'data-dir');
  for (const name of readdirSync(from)) {
    if (name.endsWith('.gz')) {
      writeFileSync(
        path.join(dir, name.slice(0, -'.gz'.length)),
        gunzipSync(readFileSync(path.join(from, name))),
      );
    } else copyFileSync(path.join(from, name), path.join(dir, name));
  }
}

const EVENTS_READ = 'audit GET /api/v1/events?limit=1000';

/** The value at an RFC 6901 pointer replaced, in a copy. */
function withValueAt(data: unknown, pointer: string, value: unknown): unknown {
  const copy = structuredClone(data) as Record<string, unknown>;
  const steps = pointer
    .slice(1)
    .split('/')
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = steps.pop() as string;
  const parent = steps.reduce<Record<string, unknown>>(
    (at, step) => at[step] as Record<string, unknown>,
    copy,
  );
  parent[last] = value;
  return copy;
}

/**
 * The log as the earlier build served it: each event's personal values opened in place. This build
 * serves the data as stored (sealed, what `hash` covers) and the opened values beside it, which the
 * keys the earlier build made (random ids) still open.
 */
function openedInPlace(reads: RecordedReads): RecordedReads {
  const answer = reads.http[EVENTS_READ] as { status: number; body: { data: Record<string, unknown>[] } };
  const data = answer.body.data.map(({ opened, ...event }) =>
    Object.entries((opened ?? {}) as Record<string, unknown>).reduce(
      (served, [pointer, value]) => ({ ...served, data: withValueAt(served.data, pointer, value) }),
      event,
    ),
  );
  return { ...reads, http: { ...reads.http, [EVENTS_READ]: { ...answer, body: { ...answer.body, data } } } };
}

/**
 * What this build adds to the answers of the earlier build (which an upgrade keeps, and may add to): the
 * record times, lists' `meta.next`, the service desk's SLA states, the statuses a record may move to
 * next, a request's priority rank and its assignee's and requester's names, a leave's decision reason,
 * a stage move's reason, and the context of a proposal; and the reads of resources added since.
 */
const ADDED_FIELDS = [
  'created_at',
  'updated_at',
  'next',
  'sla_state',
  'sla_targets',
  'sla_changes_at',
  'next_statuses',
  'priority_rank',
  'assignee_name',
  'requester_name',
  'decision_reason',
  'reason',
  'proposer_name',
  'target',
  'preview',
  'age_seconds',
  'conflicts',
];
const ADDED_READS = [/^esm GET \/api\/v1\/agents\b/];

function withoutAddedReads(reads: RecordedReads): RecordedReads {
  const http = Object.entries(reads.http).filter(([read]) => !ADDED_READS.some((added) => added.test(read)));
  return { ...reads, http: Object.fromEntries(http) as RecordedReads['http'] };
}

/**
 * `answered` without the fields this build adds where `earlier` had none: documents kept as JSON text
 * are compared as what they hold.
 */
function withoutAddedFields(answered: unknown, earlier: unknown): unknown {
  if (typeof answered === 'string' && typeof earlier === 'string' && answered.startsWith('{')) {
    try {
      return JSON.stringify(withoutAddedFields(JSON.parse(answered), JSON.parse(earlier)));
    } catch {
      return answered;
    }
  }
  if (Array.isArray(answered) && Array.isArray(earlier)) {
    return answered.map((item, index) => withoutAddedFields(item, earlier[index]));
  }
  if (!isObject(answered) || !isObject(earlier)) return answered;
  return Object.fromEntries(
    Object.entries(answered)
      .filter(([field]) => !ADDED_FIELDS.includes(field) || field in earlier)
      .map(([field, value]) => [field, withoutAddedFields(value, earlier[field])]),
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

async function readsAfterOpening(dir: string, log: RequestLog): Promise<RecordedReads> {
  const run = await open(dir, log);
  try {
    await run.suite.runtime.waitFor(await run.suite.eventStore.headPosition(), 10_000);
    return withoutAddedReads(
      openedInPlace(
        await recordReads(
          { servers: run.servers, readStore: run.suite.readStore },
          PERSONAL_MODULES,
          recorded.collections,
          { reader: readerOf, auditor },
        ),
      ),
    );
  } finally {
    await close(run);
  }
}

const versionOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true });
  } finally {
    db.close();
  }
};

let data: ReturnType<typeof tempDir>;
beforeAll(() => {
  data = tempDir('suite-upgrade-');
  copyFixture(data.dir);
});
afterAll(() => data.cleanup());

test('every read answers what the earlier build answered, and the start says what it upgraded', async () => {
  const log = requestLog();
  expect(withoutAddedFields(await readsAfterOpening(data.dir, log), recorded.reads)).toEqual(recorded.reads);
  for (const name of DATA_FILES.keys()) {
    expect(log.text()).toContain(`${name}: written before schema versions were recorded, taken as version 1`);
  }
  expect(log.text()).toMatch(/read models [a-z, .-]+ changed definition: rebuilding/);
});

test('every file now carries its schema version', () => {
  for (const [name, schema] of DATA_FILES) {
    expect(versionOf(path.join(data.dir, name))).toBe(currentVersion(schema));
  }
});

test('a second start migrates nothing and rebuilds nothing, and answers the same', async () => {
  const log = requestLog();
  expect(withoutAddedFields(await readsAfterOpening(data.dir, log), recorded.reads)).toEqual(recorded.reads);
  expect(log.text()).not.toMatch(/schema|rebuilding/);
});

test('a file written by a newer build is refused, naming the file and both versions', async () => {
  const newer = tempDir('suite-upgrade-newer-');
  try {
    copyFixture(newer.dir);
    const file = path.join(newer.dir, 'events.db');
    const db = new Database(file);
    db.pragma('user_version = 7');
    db.close();
    await expect(open(newer.dir, requestLog())).rejects.toThrow(
      `${file} has schema version 7, newer than version ${currentVersion(EVENTS_SCHEMA)} which this build knows`,
    );
    expect(versionOf(file)).toBe(7);
  } finally {
    newer.cleanup();
  }
});
