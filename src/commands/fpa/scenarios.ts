import canonicalize from 'canonicalize';
import type { FpaEventOf } from '../../events/fpa';
import { GENERATOR_VERSION, driverProblems, generatePlan, outputSha256 } from '../../fpa/plan';
import type { Decider } from '../decider';
import { DomainError } from '../errors';

type ScenarioDefined = FpaEventOf<'ScenarioDefined'>;
type PlanGenerated = FpaEventOf<'PlanGenerated'>;
type Event = ScenarioDefined | PlanGenerated;

export type ScenarioDefinition = ScenarioDefined['data'];

export interface ScenarioState {
  definition: ScenarioDefinition | null;
  /** What the last generation was computed from, with what, and the hash of what it gave. */
  generated: Pick<PlanGenerated['data'], 'inputs' | 'generator_version' | 'output_sha256'> | null;
}

export type ScenarioCommand =
  | { type: 'DefineScenario'; scenario: ScenarioDefinition }
  /**
   * Computes the plan of the current definition. Appends it unless the last generation had the same
   * inputs, generator version and output hash: a rerun or retry appends nothing.
   */
  | { type: 'GeneratePlan' };

const same = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);

function decideDefine(scenario: ScenarioDefinition, state: ScenarioState): Event[] {
  const problems = driverProblems(scenario.drivers);
  if (problems.length > 0) {
    throw new DomainError('validation_error', problems.join('; '), {
      issues: problems.map((problem) => ({
        loc: ['drivers', problem.split(':')[0]],
        msg: problem,
        type: 'value_error',
      })),
    });
  }
  // Defining a scenario again as it is changes nothing.
  if (state.definition && same(state.definition, scenario)) return [];
  return [{ type: 'ScenarioDefined', data: scenario }];
}

function decideGenerate(state: ScenarioState): Event[] {
  const { definition } = state;
  if (!definition) throw new DomainError('not_found', 'Scenario not defined');
  const inputs = { drivers: definition.drivers, seed: definition.seed };
  const output = generatePlan(inputs);
  const sha = outputSha256(output);
  if (same(state.generated, { inputs, generator_version: GENERATOR_VERSION, output_sha256: sha })) return [];
  return [
    {
      type: 'PlanGenerated',
      data: {
        scenario: definition.id,
        generator_version: GENERATOR_VERSION,
        inputs,
        output_sha256: sha,
        output,
      },
    },
  ];
}

export const scenarioDecider: Decider<ScenarioCommand, ScenarioState, Event> = {
  initialState: () => ({ definition: null, generated: null }),
  evolve(state, event) {
    if (event.type === 'ScenarioDefined') return { ...state, definition: event.data };
    const { inputs, generator_version, output_sha256 } = event.data;
    return { ...state, generated: { inputs, generator_version, output_sha256 } };
  },
  decide: (command, state) =>
    command.type === 'DefineScenario' ? decideDefine(command.scenario, state) : decideGenerate(state),
};
