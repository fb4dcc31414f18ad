import type { EventCatalog } from '../events/catalog';
import type { EventMetadata, NewEvent, StoredEvent } from '../events/envelope';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type PendingEvent,
} from '../events/event-store';
import { fold, type Decider } from './decider';

export interface CommandEnvironment {
  eventStore: EventStore;
  catalog: EventCatalog;
  metadata: EventMetadata;
  eventId: () => string;
  idempotency?: IdempotencyClaim;
}

export interface CommandOutcome {
  /** The stream's events the decision was based on. */
  history: StoredEvent[];
  /** The events appended; empty when nothing changed or the idempotency key had been used before. */
  events: StoredEvent[];
  duplicateOf?: IdempotencyRecord;
}

const ATTEMPTS = 3;

/**
 * Loads the stream, decides, validates the new events against their schemas and appends them with the
 * revision the decision was based on. A concurrent writer makes the append fail; the command is then
 * decided again on the newer state, a few times before the conflict is reported.
 */
export async function handleCommand<Command, State, Event extends NewEvent>(
  environment: CommandEnvironment,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
): Promise<CommandOutcome> {
  for (let attempt = 1; ; attempt++) {
    const history = await environment.eventStore.readStream(stream);
    const state = fold(decider, history as unknown as Event[]);
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { history, events: [] };
    const last = history[history.length - 1];
    try {
      const result = await environment.eventStore.append(stream, stamp(environment.catalog, decided), {
        expectedRevision: last ? last.revision : 'no_stream',
        metadata: environment.metadata,
        eventIds: decided.map(() => environment.eventId()),
        idempotency: environment.idempotency,
      });
      return { history, ...result };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt === ATTEMPTS) throw error;
    }
  }
}

/** Validates each event against its declared schema and stamps the schema version on it. */
export function stamp(catalog: EventCatalog, events: readonly NewEvent[]): PendingEvent[] {
  return events.map((event) => {
    const definition = catalog.get(event.type);
    if (!definition) throw new Error(`Event type ${event.type} is not declared`);
    return {
      type: event.type,
      data: definition.schema.parse(event.data),
      schema_version: definition.schemaVersion,
    };
  });
}
