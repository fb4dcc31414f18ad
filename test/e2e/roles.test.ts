import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { appendScenarioAsAnotherWriter } from '../support/other-writer';
import { startRole, type RoleProcess } from '../support/role-process';
import { tempDir } from '../support/temp-dir';
import { TOKEN } from '../support/esm-harness';

jest.setTimeout(60_000);

// Below Linux's ephemeral ports (32768 on): a client polling a port nobody listens on yet can be
// given that very port as its own, connect to itself, and keep the server from listening there.
const ESM_PORT = 32181;
const FPA_PORT = 32189;
const PROJECTOR_METRICS = 32190;
const WORKER_METRICS = 32191;
const API_METRICS = 32192;
const AUDIT_PORT = 32193;
const AUDITOR_METRICS = 32194;
const AUDIT_TOKEN = 'roles-audit-token-0123';
const REDIS_URL = process.env.SUITE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const metric = async (port: number, name: string) => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

describe('the service desk and financial planning as separate api, projector, worker and auditor processes over the embedded stores and Redis', () => {
  const { dir, cleanup } = tempDir();
  const env = {
    SUITE_DATA_DIR: dir,
    SUITE_SEED: 'none',
    SUITE_API_TOKEN: TOKEN,
    SUITE_ESM_PORT: String(ESM_PORT),
    SUITE_FPA_PORT: String(FPA_PORT),
    SUITE_REDIS_URL: REDIS_URL,
    SUITE_REDIS_PREFIX: `suite-e2e-${randomUUID()}`,
    SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
    SUITE_AUDIT_PORT: String(AUDIT_PORT),
  };
  const roles: RoleProcess[] = [];
  const base = `http://127.0.0.1:${ESM_PORT}`;

  beforeAll(async () => {
    const started = await Promise.allSettled([
      startRole(
        ['projector'],
        { ...env, SUITE_METRICS_PORT: String(PROJECTOR_METRICS) },
        `http://127.0.0.1:${PROJECTOR_METRICS}/health`,
      ),
      startRole(
        ['worker'],
        { ...env, SUITE_METRICS_PORT: String(WORKER_METRICS) },
        `http://127.0.0.1:${WORKER_METRICS}/health`,
      ),
      startRole(
        ['api', '--module', 'esm', 'fpa'],
        { ...env, SUITE_METRICS_PORT: String(API_METRICS) },
        `${base}/api/v1/health`,
      ),
      startRole(
        ['auditor'],
        { ...env, SUITE_METRICS_PORT: String(AUDITOR_METRICS) },
        `http://127.0.0.1:${AUDIT_PORT}/api/v1/health`,
      ),
    ]);
    // Roles that did start are stopped in afterAll even when another one failed to.
    for (const role of started) if (role.status === 'fulfilled') roles.push(role.value);
    const failed = started.find((role) => role.status === 'rejected');
    if (failed) throw failed.reason;
  });
  afterAll(async () => {
    await Promise.all(roles.map((role) => role.stop()));
    cleanup();
  });

  it('a write on the api role is projected by the projector role and read back with X-Min-Position', async () => {
    const created = await fetch(`${base}/api/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Laptop for Ana', status: 'Open', priority: 'High' }),
    });
    expect(created.status).toBe(201);
    const position = created.headers.get('x-event-position') as string;
    const record = (await created.json()) as { id: number; title: string };

    const read = await fetch(`${base}/api/v1/requests/${record.id}`, {
      headers: { 'X-Min-Position': position },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(record);

    const list = (await (
      await fetch(`${base}/api/v1/requests?q=laptop`, { headers: { 'X-Min-Position': position } })
    ).json()) as {
      meta: { total: number };
    };
    expect(list.meta.total).toBe(1);
  });

  it('the auditor role serves the log and signs a checkpoint covering the writes of the api role', async () => {
    const created = await fetch(`${base}/api/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Badge for Ana', status: 'Open', priority: 'Low' }),
    });
    const position = Number(created.headers.get('x-event-position'));
    const audit = (route: string) =>
      fetch(`http://127.0.0.1:${AUDIT_PORT}${route}`, {
        headers: { authorization: `Bearer ${AUDIT_TOKEN}` },
      });
    let size = 0;
    for (let attempt = 0; size < position && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const checkpoint = await audit('/api/v1/checkpoint');
      if (checkpoint.ok) size = Number((await checkpoint.text()).split('\n')[1]);
    }
    expect(size).toBeGreaterThanOrEqual(position);
    const proof = await audit(`/api/v1/proofs/inclusion?position=${position}`);
    expect(proof.status).toBe(200);
    expect(((await proof.json()) as { event: { type: string } }).event.type).toBe('RequestSubmitted');
  });

  it('an event written to the log makes the worker role run its job through BullMQ; the api role serves the result', async () => {
    await appendScenarioAsAnotherWriter(path.join(dir, 'events.db'));

    const statements = `http://127.0.0.1:${FPA_PORT}/api/v1/statements/base?granularity=year`;
    let answer = await fetch(statements);
    for (let attempt = 0; answer.status !== 200 && attempt < 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await fetch(statements);
    }
    expect(answer.status).toBe(200);
    const plan = (await (await fetch(`http://127.0.0.1:${FPA_PORT}/api/v1/scenarios/base`)).json()) as {
      latest_generation: { output_sha256: string } | null;
    };
    expect(plan.latest_generation?.output_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('each role reports its lag on /metrics', async () => {
    // Lag is a live gauge: the api role follows the projector's checkpoints by polling them.
    const settledLag = async (port: number) => {
      let lag = await metric(port, 'suite_projector_lag_events');
      for (let attempt = 0; lag !== 0 && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        lag = await metric(port, 'suite_projector_lag_events');
      }
      return lag;
    };
    expect(await settledLag(PROJECTOR_METRICS)).toBe(0);
    expect(await metric(PROJECTOR_METRICS, 'suite_event_log_head_position')).toBeGreaterThan(0);
    expect(await metric(WORKER_METRICS, 'suite_job_queue_depth{state="failed"}')).toBe(0);
    expect(await settledLag(API_METRICS)).toBe(0);
  });
});
