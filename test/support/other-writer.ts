import { createIdAllocator } from '../../src/commands/ids';
import { defineScenario } from '../../src/commands/fpa/handlers';
import type { ScenarioDefinition } from '../../src/commands/fpa/scenarios';
import { openSqliteEventStore } from '../../src/events/sqlite-event-store';
import { createSeedContext } from '../../src/seed/context';
import { SCENARIOS } from '../../src/seed/fpa-data';

/**
 * Appends the first demo scenario to the log file from a connection of its own, as another process
 * would: its definition makes a planning job due.
 */
export async function appendScenarioAsAnotherWriter(eventsFile: string): Promise<void> {
  const store = openSqliteEventStore(eventsFile);
  const seed = createSeedContext(store, createIdAllocator(store), 'other-writer');
  seed.at(new Date('2026-11-02T09:00:00Z'));
  await defineScenario(seed.commands, SCENARIOS[0] as ScenarioDefinition);
  await store.close();
}
