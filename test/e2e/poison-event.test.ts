import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { MODULE_IDS } from '../../src/modules/ids';
import type { EventMetadata } from '../../src/events/envelope';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { appendScenarioAsAnotherWriter } from '../support/other-writer';
import { eventually } from '../support/eventually';
import { startSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(120_000);

const PORT = 18_561;
const TOKEN = 'poison-test-api-token-0123';
const AUDIT_TOKEN = 'poison-test-audit-token-0123';
const ESM = `http://127.0.0.1:${PORT}`;
const FPA = `http://127.0.0.1:${PORT + MODULE_IDS.indexOf('fpa')}`;
const AUDIT = `http://127.0.0.1:${PORT + MODULE_IDS.length}`;
const METRICS = `http://127.0.0.1:${PORT + MODULE_IDS.length + 1}`;

const metadata: EventMetadata = {
  actor: 'tamperer',
  request_id: 'poison',
  correlation_id: 'poison',
  causation_id: null,
  occurred_at: '2026-11-21T09:30:00Z',
};

/**
 * Appends two events no projection can apply, as another process writing the log would: a request
 * submitted without data (its projection throws) and a department stored at a schema version no
 * upcaster reads. Answers their positions.
 */
async function appendPoison(eventsFile: string): Promise<number[]> {
  const store = openSqliteEventStore(eventsFile);
  try {
    const noData = await store.append(
      'esm.request-900',
      [{ type: 'RequestSubmitted', data: null, schema_version: 1 }],
      {
        expectedRevision: 'no_stream',
        metadata,
      },
    );
    const unreadable = await store.append(
      'esm.department-900',
      [{ type: 'DepartmentAdded', data: { id: 900, name: 'Ghosts', icon: null }, schema_version: 0 }],
      { expectedRevision: 'no_stream', metadata },
    );
    return [...noData.events, ...unreadable.events].map((event) => event.position);
  } finally {
    await store.close();
  }
}

function cli(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [SUITE_CLI, ...args, '--data-dir', dir], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
}

const json = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const write = (path: string, body: object) =>
  json(`${ESM}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const parked = () =>
  json(`${AUDIT}/api/v1/projections/parked`, { headers: { Authorization: `Bearer ${AUDIT_TOKEN}` } });

describe('a poison event appended straight into the log', () => {
  const { dir, cleanup } = tempDir();
  const env = {
    SUITE_DATA_DIR: dir,
    SUITE_SEED: 'none',
    SUITE_API_TOKEN: TOKEN,
    SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
  };
  let suite: SuiteProcess;
  let positions: number[];

  beforeAll(async () => {
    suite = await startSuiteProcess(env, PORT);
    positions = await appendPoison(path.join(dir, 'events.db'));
  });
  afterAll(async () => {
    if (suite.child.exitCode === null) suite.child.kill('SIGTERM');
    await suite.exited;
    cleanup();
  });

  it('is parked by its projection, visible to auditors, on /metrics and in health', async () => {
    const listed = await eventually(
      'two parked events',
      parked,
      ({ body }) => (body.data as unknown[]).length === 2,
      { intervalMs: 100 },
    );
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        projection: 'esm.requests',
        position: positions[0],
        stream: 'esm.request-900',
        type: 'RequestSubmitted',
        error: expect.stringMatching(/TypeError/),
      }),
      expect.objectContaining({
        projection: 'esm.departments',
        position: positions[1],
        stream: 'esm.department-900',
        error: expect.stringMatching(/no upcaster from v0/),
      }),
    ]);
    // The runtime counts what it parked right after the commit that parked it: health follows.
    const health = await eventually(
      'degraded projections in health',
      () => json(`${ESM}/api/v1/health`),
      ({ body }) => body.projections === 'degraded',
      { intervalMs: 100 },
    );
    expect(health.body).toMatchObject({ status: 'ok', projections: 'degraded' });
    expect(await (await fetch(`${METRICS}/metrics`)).text()).toMatch(/^suite_projection_parked_events 2$/m);
    expect((await fetch(`${ESM}/metrics`)).status).toBe(404);
  });

  it('stops no read model: writes after it, in its module and in others, are answered and read back', async () => {
    const request = await write('/api/v1/requests', {
      title: 'After the poison',
      status: 'Open',
      priority: 'Low',
    });
    expect(request.status).toBe(201);
    expect((await json(`${ESM}/api/v1/requests/${request.body.id}`)).status).toBe(200);
    await appendScenarioAsAnotherWriter(path.join(dir, 'events.db'));
    const scenario = await eventually(
      'the scenario written by another writer',
      () => json(`${FPA}/api/v1/scenarios/base`),
      ({ status }) => status === 200,
      { intervalMs: 100 },
    );
    expect(scenario.body).toMatchObject({ id: 'base' });
  });

  it('survives a restart, a rebuild and a retry, still parked until the projection is fixed', async () => {
    suite.child.kill('SIGTERM');
    expect(await suite.exited).toBe(0);
    suite = await startSuiteProcess(env, PORT);
    expect((await parked()).body.meta).toMatchObject({ total: 2 });
    expect((await json(`${ESM}/api/v1/health`)).body).toMatchObject({ projections: 'degraded' });
    suite.child.kill('SIGTERM');
    expect(await suite.exited).toBe(0);

    const rebuild = cli(dir, 'rebuild');
    expect(rebuild.status).toBe(0);
    const listed = cli(dir, 'projections', 'parked', '--json');
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as { position: number }[]).map(({ position }) => position)).toEqual(
      positions,
    );

    const retry = cli(dir, 'projections', 'retry', '--position', String(positions[0]));
    expect(retry.status).toBe(0);
    expect(retry.stdout).toMatch(/^1 parked event\(s\) retried: 0 applied, 1 still parked$/m);
    const notParked = String((positions[1] as number) + 1);
    expect(cli(dir, 'projections', 'retry', '--position', notParked).status).toBe(1);

    suite = await startSuiteProcess(env, PORT);
    expect((await json(`${ESM}/api/v1/health`)).status).toBe(200);
  });
});
