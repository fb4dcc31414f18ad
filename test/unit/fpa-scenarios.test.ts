import { scenarioDecider, type ScenarioDefinition } from '../../src/commands/fpa/scenarios';
import { GENERATOR_VERSION, generatePlan, outputSha256 } from '../../src/fpa/plan';
import { SCENARIOS } from '../../src/seed/fpa-data';
import { deciderSpec } from '../support/decider-spec';

const spec = deciderSpec(scenarioDecider);
const base = SCENARIOS[0] as ScenarioDefinition;
const defined = { type: 'ScenarioDefined' as const, data: base };
const inputs = { drivers: base.drivers, seed: base.seed };
const output = generatePlan(inputs);
const generated = {
  type: 'PlanGenerated' as const,
  data: {
    scenario: 'base',
    generator_version: GENERATOR_VERSION,
    inputs,
    output_sha256: outputSha256(output),
    output,
  },
};

describe('scenario decider', () => {
  it('defines a new scenario', () => {
    spec([]).when({ type: 'DefineScenario', scenario: base }).then([defined]);
  });

  it('changes nothing when a scenario is defined again as it is', () => {
    spec([defined, generated])
      .when({ type: 'DefineScenario', scenario: structuredClone(base) })
      .then([]);
  });

  it('records a redefinition with other drivers', () => {
    const changed = { ...base, drivers: { ...base.drivers, tax_rate_pct: 30 } };
    spec([defined, generated])
      .when({ type: 'DefineScenario', scenario: changed })
      .then([{ type: 'ScenarioDefined', data: changed }]);
  });

  it('rejects drivers whose opening balance sheet does not balance', () => {
    const opening = { ...base.drivers.opening_balance, cash: base.drivers.opening_balance.cash + 0.01 };
    const unbalanced = { ...base, drivers: { ...base.drivers, opening_balance: opening } };
    spec([])
      .when({ type: 'DefineScenario', scenario: unbalanced })
      .thenThrows({
        code: 'validation_error',
        message: expect.stringMatching(/opening_balance: assets exceed liabilities and equity by 0.01/),
      });
  });

  it('rejects more closed months than the horizon', () => {
    const scenario = { ...base, drivers: { ...base.drivers, closed_months: 25 } };
    spec([]).when({ type: 'DefineScenario', scenario }).thenThrows({ code: 'validation_error' });
  });

  it('generates the plan of the current definition with its inputs and output hash', () => {
    spec([defined]).when({ type: 'GeneratePlan' }).then([generated]);
  });

  it('appends nothing when the plan equals the last generation', () => {
    spec([defined, generated]).when({ type: 'GeneratePlan' }).then([]);
  });

  const regenerate = (changed: ScenarioDefinition) =>
    scenarioDecider.decide(
      { type: 'GeneratePlan' },
      [defined, generated, { type: 'ScenarioDefined' as const, data: changed }].reduce(
        scenarioDecider.evolve,
        scenarioDecider.initialState(),
      ),
    );

  it('generates again after a redefinition, from the new drivers', () => {
    const changed = {
      ...base,
      drivers: { ...base.drivers, customers: { ...base.drivers.customers, churn_pct: 2 } },
    };
    const [event, ...more] = regenerate(changed);
    expect(more).toEqual([]);
    expect(event?.data).toMatchObject({ inputs: { drivers: changed.drivers } });
    expect((event?.data as { output_sha256: string }).output_sha256).not.toBe(generated.data.output_sha256);
  });

  it('records the new inputs even when they give the same figures', () => {
    // Base makes losses with a carried-forward deficit throughout: no tax at 25% or 30%.
    const changed = { ...base, drivers: { ...base.drivers, tax_rate_pct: 30 } };
    const [event] = regenerate(changed);
    expect(event?.data).toMatchObject({
      inputs: { drivers: changed.drivers },
      output_sha256: generated.data.output_sha256,
    });
  });

  it('cannot generate the plan of a scenario that is not defined', () => {
    spec([]).when({ type: 'GeneratePlan' }).thenThrows({ code: 'not_found' });
  });
});
