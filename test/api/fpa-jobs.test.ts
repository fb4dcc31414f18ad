import request from 'supertest';
import { fpaModule } from '../../src/api/fpa';
import { defineScenario } from '../../src/commands/fpa/handlers';
import type { ScenarioDefinition } from '../../src/commands/fpa/scenarios';
import type { StoredEvent } from '../../src/events/envelope';
import { GENERATOR_VERSION, generatePlan, outputSha256 } from '../../src/fpa/plan';
import { SCENARIOS } from '../../src/seed/fpa-data';
import { createSeedContext } from '../../src/seed/context';
import { causeOf } from '../../src/workers/module-jobs';
import { allDocuments, openModule, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope } from './spec';

const downside = SCENARIOS.find((scenario) => scenario.id === 'downside') as ScenarioDefinition;

type Generated = { scenario: string; generator_version: string; output_sha256: string; inputs: unknown };

describe('fpa.plan job', () => {
  let h: ModuleHarness<unknown>;
  beforeEach(async () => {
    h = await openModule(fpaModule, { fixtures: (seed) => defineScenario(seed.commands, downside) });
  });
  afterEach(() => h.close());

  const events = async () => h.suite.eventStore.readAll({ after: 0, limit: 1000 });
  const commands = (name: string) => {
    const seed = createSeedContext(h.suite.eventStore, h.suite.ids, name);
    seed.at(new Date('2026-11-03T10:00:00Z'));
    return seed.commands;
  };

  it('answers ScenarioDefined with PlanGenerated: inputs, generator version and the output\u2019s hash', async () => {
    const [defined, generated, ...more] = await events();
    expect(more).toEqual([]);
    expect(defined?.type).toBe('ScenarioDefined');
    expect(generated?.type).toBe('PlanGenerated');
    const inputs = { drivers: downside.drivers, seed: downside.seed };
    expect(generated?.data).toMatchObject({
      scenario: 'downside',
      generator_version: GENERATOR_VERSION,
      inputs,
      output_sha256: outputSha256(generatePlan(inputs)),
    });
    expect(generated?.metadata).toMatchObject({
      actor: 'worker:fpa.plan',
      causation_id: defined?.event_id,
      occurred_at: defined?.metadata.occurred_at,
    });
  });

  it('lets an auditor recompute the recorded output from the recorded inputs', async () => {
    const generated = (await events())[1] as StoredEvent<string, Generated & { output: unknown }>;
    const recomputed = generatePlan(generated.data.inputs as Parameters<typeof generatePlan>[0]);
    expect(recomputed).toEqual(generated.data.output);
    expect(outputSha256(recomputed)).toBe(generated.data.output_sha256);
  });

  it('appends nothing when the job runs again', async () => {
    const before = await events();
    const cause = causeOf(before[0] as StoredEvent);
    await h.suite.jobs.enqueue('fpa.plan', { payload: { scenario: 'downside' }, cause }, { jobId: 'rerun' });
    await h.settle();
    expect(await events()).toEqual(before);
    expect((await h.suite.jobs.counts()).failed).toBe(0);
  });

  it('rebuilds the read models identically, without running the jobs of the history again', async () => {
    const readModels = async () => [
      await allDocuments(h, 'fpa.scenarios'),
      await allDocuments(h, 'fpa.plans'),
    ];
    const live = await readModels();
    const before = await events();
    const { completed } = await h.suite.jobs.counts();
    await h.suite.runtime.rebuild();
    await h.settle();
    expect(await events()).toEqual(before);
    expect(await readModels()).toEqual(live);
    expect((await h.suite.jobs.counts()).completed).toBe(completed);
  });

  it('changes nothing when the scenario is defined again as it is', async () => {
    const before = await events();
    await defineScenario(commands('again'), structuredClone(downside));
    await h.settle();
    expect(await events()).toEqual(before);
  });

  it('generates a new plan after a redefinition, and the API serves it', async () => {
    const changed = {
      ...downside,
      drivers: { ...downside.drivers, capex: { monthly: 30_000, useful_life_months: 24 } },
    };
    await defineScenario(commands('redefine'), changed);
    await h.settle();
    const generations = (await events()).filter((event) => event.type === 'PlanGenerated');
    expect(generations).toHaveLength(2);
    const latest = generations[1] as StoredEvent<string, Generated>;
    expect(latest.data.output_sha256).toBe(
      outputSha256(generatePlan({ drivers: changed.drivers, seed: changed.seed })),
    );
    const scenario = (await request(h.app).get('/api/v1/scenarios/downside').expect(200)).body;
    expect(scenario.latest_generation).toMatchObject({
      output_sha256: latest.data.output_sha256,
      position: latest.position,
    });
    const statements = (
      await request(h.app).get('/api/v1/statements/downside').query({ statement: 'cashflow' })
    ).body;
    expect(statements.output_sha256).toBe(latest.data.output_sha256);
    expect(statements.data[0].cashflow.capital_expenditure).toBe(-30_000);
  });
});

describe('a scenario whose plan no worker has generated yet', () => {
  it('answers 503 not_caught_up with Retry-After on its computed endpoints', async () => {
    const workerless = await openModule(
      { ...fpaModule, jobs: [] },
      { fixtures: (seed) => defineScenario(seed.commands, downside) },
    );
    try {
      const scenario = (await request(workerless.app).get('/api/v1/scenarios/downside').expect(200)).body;
      expect(scenario.latest_generation).toBeNull();
      for (const path of ['/api/v1/statements/downside', '/api/v1/recurring/downside']) {
        const res = await request(workerless.app).get(path);
        expectEnvelope(res, 503, 'not_caught_up');
        expect(res.headers['retry-after']).toBe('1');
      }
      const variances = await request(workerless.app)
        .get('/api/v1/variances')
        .query({ scenario: 'downside' });
      expectEnvelope(variances, 503, 'not_caught_up');
    } finally {
      await workerless.close();
    }
  });
});
