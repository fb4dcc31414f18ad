import { MODULE_IDS } from '../../src/modules/ids';
import { startSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(120_000);

const PORT = 18_581;
const url = (module: (typeof MODULE_IDS)[number], path: string) =>
  `http://127.0.0.1:${PORT + MODULE_IDS.indexOf(module)}${path}`;

describe('the first `suite start` on an empty data directory', () => {
  const { dir, cleanup } = tempDir();
  let suite: SuiteProcess;

  beforeAll(async () => {
    // Writing the demo data from the sources takes a while on 2 cores.
    suite = await startSuiteProcess({ SUITE_DATA_DIR: dir }, PORT, { waitMs: 100_000 });
  });
  afterAll(async () => {
    suite.child.kill('SIGTERM');
    await suite.exited;
    cleanup();
  });

  it('serves the demo data of every module', async () => {
    const requests = (await (await fetch(url('esm', '/api/v1/requests?limit=1'))).json()) as {
      meta: { total: number };
    };
    expect(requests.meta.total).toBeGreaterThan(300);
    const employees = (await (await fetch(url('hrm', '/api/v1/employees?limit=1'))).json()) as {
      meta: { total: number };
    };
    expect(employees.meta.total).toBeGreaterThan(0);
  });

  it('has run the jobs the demo data makes due: every scenario has its plan', async () => {
    const scenarios = (await (await fetch(url('fpa', '/api/v1/scenarios?limit=200'))).json()) as {
      data: { latest_generation: { output_sha256: string } | null }[];
    };
    expect(scenarios.data.length).toBeGreaterThan(0);
    for (const scenario of scenarios.data)
      expect(scenario.latest_generation?.output_sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
