import { z } from 'zod';
import { streamCategory, type StoredEvent } from '../events/envelope';
import { fpaStreams, type FpaEvent } from '../events/fpa';
import { Drivers } from '../fpa/drivers';
import { PlanOutput } from '../fpa/output';
import { text, timestamp } from './fields';
import type { DocumentProjection, Projector } from './projection';

const sha256 = text.meta({ description: 'SHA-256 (hex) of the canonical JSON (RFC 8785) of the output' });
const position = z.number().int().meta({ description: 'Global position of the PlanGenerated event' });

export const ScenarioRecord = z
  .object({
    id: text.meta({ description: 'base, upside, downside...' }),
    name: text,
    description: text,
    seed: text.meta({ description: 'Seed of the generator\u2019s noise and synthetic actuals' }),
    drivers: Drivers,
    defined_at: timestamp,
    latest_generation: z
      .object({ generator_version: text, output_sha256: sha256, position, generated_at: timestamp })
      .nullable()
      .meta({ description: 'The last PlanGenerated of this scenario; null until the worker has run' }),
  })
  .meta({ id: 'Scenario' });

export const PlanRecord = z
  .object({
    id: text.meta({ description: 'The scenario' }),
    scenario: text,
    generator_version: text,
    inputs: z.object({ drivers: Drivers, seed: text }),
    output_sha256: sha256,
    position,
    generated_at: timestamp,
    output: PlanOutput,
  })
  .meta({ id: 'PlanGeneration' });

export type ScenarioRecord = z.infer<typeof ScenarioRecord>;
export type PlanRecord = z.infer<typeof PlanRecord>;

type Event = StoredEvent & FpaEvent;

/** `fpa.scenario-base` -> `base` */
const scenarioOf = (event: StoredEvent) => event.stream.slice(streamCategory(event.stream).length + 1);

function evolveScenario(doc: ScenarioRecord | null, stored: StoredEvent): ScenarioRecord | null {
  const event = stored as Event;
  const at = event.metadata.occurred_at;
  if (event.type === 'ScenarioDefined') {
    return { ...event.data, defined_at: at, latest_generation: doc?.latest_generation ?? null };
  }
  if (!doc) return null;
  const { generator_version, output_sha256 } = event.data;
  return {
    ...doc,
    latest_generation: { generator_version, output_sha256, position: event.position, generated_at: at },
  };
}

const scenarios: DocumentProjection<ScenarioRecord> = {
  collection: 'fpa.scenarios',
  handles: ['ScenarioDefined', 'PlanGenerated'],
  documentId: scenarioOf,
  stream: (id) => fpaStreams.scenario(String(id)),
  evolve: evolveScenario,
};

const plans: DocumentProjection<PlanRecord> = {
  collection: 'fpa.plans',
  handles: ['PlanGenerated'],
  documentId: scenarioOf,
  stream: (id) => fpaStreams.scenario(String(id)),
  evolve(_doc, stored) {
    const { data, metadata, position: at } = stored as Extract<Event, { type: 'PlanGenerated' }>;
    return { id: data.scenario, ...data, position: at, generated_at: metadata.occurred_at };
  },
};

export const fpaProjector: Projector = {
  name: 'fpa',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [scenarios, plans],
};
