import { eventCatalog } from '../../events/catalog';
import { fpaEvents, fpaStreams } from '../../events/fpa';
import type { CommandContext } from '../context';
import { moduleCommands } from '../module-commands';
import { scenarioDecider, type ScenarioDefinition } from './scenarios';

const { run } = moduleCommands(eventCatalog(fpaEvents));

export function defineScenario(context: CommandContext, scenario: ScenarioDefinition) {
  return run(context, fpaStreams.scenario(scenario.id), scenarioDecider, {
    type: 'DefineScenario',
    scenario,
  });
}

export function generatePlanFor(context: CommandContext, scenarioId: string) {
  return run(context, fpaStreams.scenario(scenarioId), scenarioDecider, { type: 'GeneratePlan' });
}
