import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import { moduleCollections } from '../../src/api/kit/module';
import { diffReadModels } from '../../src/audit/diff';
import { copyLog } from '../../src/audit/replay';
import { loadConfig } from '../../src/config';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { verifyLog } from '../../src/events/verify';
import { openSuite, seedDemoData, type Suite } from '../../src/main';
import { createProjectionRuntime } from '../../src/projections/runtime';
import { openSqliteReadStore } from '../../src/projections/sqlite-read-store';
import { SERVER_SECRET } from '../support/esm-harness';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(60_000);

const logger = createLogger('silent');
const open = (dir: string) =>
  openSuite(loadConfig({ SUITE_DATA_DIR: dir, SUITE_LOG_LEVEL: 'silent' }), { logger, modules: [esmModule] });

let dir: string;
let cleanup: () => void;
let suite: Suite;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  suite = await open(dir);
  await seedDemoData(suite, 'demo');
  await suite.runtime.start();
});
afterAll(async () => {
  await suite.close();
  cleanup();
});

/** A copy of the demo store to tamper with, opened raw. */
async function tamperedCopy(tamper: (db: Database.Database) => void) {
  const copy = tempDir();
  await suite.close();
  copyFileSync(path.join(dir, 'events.db'), path.join(copy.dir, 'events.db'));
  suite = await open(dir);
  await suite.runtime.start();
  const db = new Database(path.join(copy.dir, 'events.db'));
  tamper(db);
  db.close();
  const store = openSqliteEventStore(path.join(copy.dir, 'events.db'));
  const report = await verifyLog(store, suite.catalog);
  await store.close();
  copy.cleanup();
  return report;
}

describe('verifying the log', () => {
  it('finds the demo log intact and gives a digest of it', async () => {
    const report = await verifyLog(suite.storedEvents, suite.catalog);
    expect(report).toMatchObject({ ok: true, problems: [] });
    expect(report.events_checked).toBe(await suite.storedEvents.headPosition());
    expect(report.digest.sha256).toMatch(/^[0-9a-f]{64}$/);
    const earlier = await verifyLog(suite.storedEvents, suite.catalog, { until: 100 });
    expect(earlier.digest.position).toBe(100);
    expect(earlier.digest.sha256).not.toBe(report.digest.sha256);
  });

  it('names the stream and revision of an altered event', async () => {
    const report = await tamperedCopy((db) =>
      db
        .prepare("UPDATE events SET data = json_set(data, '$.rating', 5) WHERE stream = ? AND type = ?")
        .run('esm.request-2', 'RequestFeedbackGiven'),
    );
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.objectContaining({
        stream: 'esm.request-2',
        revision: 6,
        problem: expect.stringContaining('altered'),
      }),
    ]);
  });

  it('names the missing revision when an event is deleted from the middle of a stream', async () => {
    const report = await tamperedCopy((db) =>
      db.prepare('DELETE FROM events WHERE stream = ? AND revision = 2').run('esm.request-7'),
    );
    expect(report.problems).toEqual([
      expect.objectContaining({
        stream: 'esm.request-7',
        revision: 3,
        problem: 'revision 2 is missing before revision 3',
      }),
    ]);
  });

  it('notices the last event of a stream being deleted', async () => {
    const report = await tamperedCopy((db) =>
      db.prepare('DELETE FROM events WHERE stream = ? AND revision = 6').run('esm.request-7'),
    );
    expect(report.problems).toEqual([
      expect.objectContaining({
        stream: 'esm.request-7',
        revision: 6,
        problem: expect.stringContaining('missing at the end'),
      }),
    ]);
  });
});

describe('replaying to a point in time', () => {
  it('answers a real API call as it was before an approval', async () => {
    const [approval] = await suite.storedEvents.queryLog({ after: 0, limit: 1, type: 'RequestApproved' });
    const id = Number(approval!.stream.split('-')[1]);
    const now = await request(
      createModuleApp(esmModule, suite, { apiToken: undefined, sessionSecret: SERVER_SECRET }),
    ).get(`/api/v1/requests/${id}`);
    expect(now.body.approved_on).not.toBeNull();

    const past = tempDir();
    const replayed = await open(past.dir);
    try {
      await copyLog(suite.storedEvents, replayed.storedEvents, { until: approval!.position - 1 });
      await replayed.runtime.start();
      const app = createModuleApp(esmModule, replayed, { apiToken: undefined, sessionSecret: SERVER_SECRET });
      const then = await request(app).get(`/api/v1/requests/${id}`).expect(200);
      expect(then.body).toMatchObject({
        id,
        status: 'Pending Approval',
        approved_on: null,
        approver_id: null,
      });
      expect((await verifyLog(replayed.storedEvents, replayed.catalog)).ok).toBe(true);
    } finally {
      await replayed.close();
      past.cleanup();
    }
  });
});

describe('diffing read models against a rebuild', () => {
  it('reports identical after the demo seed, and the precise difference after a read model drifts', async () => {
    const scratchDir = tempDir();
    const scratch = openSqliteReadStore(path.join(scratchDir.dir, 'read.db'));
    const collections = moduleCollections(esmModule);
    await scratch.defineCollections(collections);
    try {
      await createProjectionRuntime(suite.eventStore, scratch, [esmModule.projector], {
        onError: () => {},
      }).rebuild();
      expect(await diffReadModels(suite.readStore, scratch, collections)).toEqual([]);

      const doc = JSON.parse((await scratch.get('esm.requests', 3))!);
      await scratch.commit(
        [{ collection: 'esm.requests', id: 3, doc: { ...doc, title: 'changed' } }],
        new Map(),
      );
      await scratch.commit([{ collection: 'esm.departments', id: 1, doc: null }], new Map());
      expect(await diffReadModels(suite.readStore, scratch, collections)).toEqual([
        { collection: 'esm.requests', id: 3, kind: 'different', fields: ['title'] },
        { collection: 'esm.departments', id: 1, kind: 'extra' },
      ]);
    } finally {
      await scratch.close();
      scratchDir.cleanup();
    }
  });
});
