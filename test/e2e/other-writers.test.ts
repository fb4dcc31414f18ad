import path from 'node:path';
import { MODULE_IDS } from '../../src/modules/ids';
import { appendScenarioAsAnotherWriter } from '../support/other-writer';
import { startSuiteProcess, type SuiteProcess } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(60_000);

const PORT = 18_501;
const FPA = `http://127.0.0.1:${PORT + MODULE_IDS.indexOf('fpa')}/api/v1`;

describe('`suite start` while another process appends to its log (as `suite market import` does)', () => {
  const { dir, cleanup } = tempDir();
  let suite: SuiteProcess;

  beforeAll(async () => {
    suite = await startSuiteProcess({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none' }, PORT);
  });
  afterAll(async () => {
    suite.child.kill('SIGTERM');
    await suite.exited;
    cleanup();
  });

  it('serves the appended events, projected, and what the jobs they make due wrote, without a restart', async () => {
    expect((await fetch(`${FPA}/scenarios/base`)).status).toBe(404);

    await appendScenarioAsAnotherWriter(path.join(dir, 'events.db'));

    let statements = await fetch(`${FPA}/statements/base?granularity=year`);
    for (let attempt = 0; statements.status !== 200 && attempt < 100; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      statements = await fetch(`${FPA}/statements/base?granularity=year`);
    }
    expect(statements.status).toBe(200);
    const scenario = (await (await fetch(`${FPA}/scenarios/base`)).json()) as {
      id: string;
      latest_generation: { output_sha256: string } | null;
    };
    expect(scenario.id).toBe('base');
    expect(scenario.latest_generation?.output_sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
