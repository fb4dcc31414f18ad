import { defineScenario } from '../commands/fpa/handlers';
import type { SeedContext } from './context';
import { SCENARIOS } from './fpa-data';

/** When the planning team set the scenarios up; the worker generates each plan after its definition. */
const DEFINED_AT = new Date('2026-11-02T09:00:00Z');
const MINUTE = 60_000;

export async function seedPlanning(seed: SeedContext): Promise<void> {
  for (const [index, scenario] of SCENARIOS.entries()) {
    seed.at(new Date(DEFINED_AT.getTime() + index * 15 * MINUTE));
    await defineScenario(seed.commands, scenario);
  }
}
