import { z } from 'zod';
import { Drivers } from '../fpa/drivers';
import { PlanOutput } from '../fpa/output';
import { defineEvent, type EventsOf } from './catalog';

const scenarioId = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,39}$/)
  .meta({ description: 'Lower-case slug: base, upside, downside' });

export const fpaEvents = [
  defineEvent(
    'ScenarioDefined',
    z.object({
      id: scenarioId,
      name: z.string().min(1),
      description: z.string(),
      seed: z.string().min(1),
      drivers: Drivers,
    }),
  ),
  defineEvent(
    'PlanGenerated',
    z.object({
      scenario: scenarioId,
      generator_version: z.string(),
      inputs: z.object({ drivers: Drivers, seed: z.string() }),
      output_sha256: z.string().regex(/^[0-9a-f]{64}$/),
      output: PlanOutput,
    }),
  ),
] as const;

export type FpaEvent = EventsOf<typeof fpaEvents>;
export type FpaEventOf<Type extends FpaEvent['type']> = Extract<FpaEvent, { type: Type }>;

/** One stream per scenario: its definitions and the plans generated from them. */
export const fpaStreams = {
  scenario: (id: string) => `fpa.scenario-${id}`,
};
