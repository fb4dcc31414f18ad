import type { EventCatalog } from '../events/catalog';
import type { EventMetadata, NewEvent, StoredEvent } from '../events/envelope';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type PendingEvent,
} from '../events/event-store';
import { activeTraceparent, inSpan } from '../telemetry/tracing';
import type { CommandResult } from './context';
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

/** What a decider decided on one stream, to be appended at the revision the decision was based on. */
export interface Decision {
  stream: string;
  /** The stream's events the decision was based on. */
  history: StoredEvent[];
  events: NewEvent[];
}

/** Loads the stream and decides the command on its state, without appending. */
export async function decideOn<Command, State, Event extends NewEvent>(
  eventStore: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
): Promise<Decision> {
  const history = await eventStore.readStream(stream);
  const events = decider.decide(command, fold(decider, history as unknown as Event[]));
  return { stream, history, events };
}

/**
 * Decides (`decideAll`: on one stream, or on several whose changes stand or fall together), validates
 * the new events against their schemas and appends them at once (`EventStore.appendAll`), each stream
 * at the revision its decision was based on, the idempotency claim with the last decision's events.
 * A concurrent writer makes the append fail; everything is then decided again on the newer state, a
 * few times before the conflict is reported.
 */
export async function handleDecisions(
  environment: CommandEnvironment,
  decideAll: () => Promise<Decision[]>,
): Promise<CommandResult[]> {
  for (let attempt = 1; ; attempt++) {
    const decisions = await inSpan(
      'command.decide',
      { attributes: { 'suite.attempt': attempt } },
      async (span) => {
        const decided = await decideAll();
        span?.setAttributes({
          'suite.streams': decided.map((decision) => decision.stream),
          'suite.events': decided.reduce((sum, decision) => sum + decision.events.length, 0),
        });
        return decided;
      },
    );
    const changed = decisions.filter((decision) => decision.events.length > 0);
    const unchanged = ({ stream, history }: Decision) => ({ stream, outcome: { history, events: [] } });
    if (changed.length === 0) return decisions.map(unchanged);
    const last = decisions[decisions.length - 1];
    try {
      const results = await inSpan('event_store.append', {}, async (span) => {
        const appended = await environment.eventStore.appendAll(
          changed.map((decision) => ({
            stream: decision.stream,
            events: stamp(environment.catalog, decision.events),
            options: {
              expectedRevision: decision.history[decision.history.length - 1]?.revision ?? 'no_stream',
              metadata: withTraceContext(environment.metadata),
              eventIds: decision.events.map(() => environment.eventId()),
              idempotency: decision === last ? environment.idempotency : undefined,
            },
          })),
        );
        span?.setAttributes(appendAttributes(appended));
        return appended;
      });
      return decisions.map((decision) => {
        const result = results[changed.indexOf(decision)];
        return result
          ? { stream: decision.stream, outcome: { history: decision.history, ...result } }
          : unchanged(decision);
      });
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt === ATTEMPTS) throw error;
    }
  }
}

/**
 * The metadata with the trace context of the append (`traceparent`), so that whoever follows the log
 * (projections, jobs, the relay) continues the trace; as it is, outside any trace.
 */
function withTraceContext(metadata: EventMetadata): EventMetadata {
  const traceparent = activeTraceparent();
  return traceparent === undefined ? metadata : { ...metadata, traceparent };
}

/** What an append span tells: the streams, how many events, and the position of the last one. */
function appendAttributes(results: readonly AppendResult[]) {
  const events = results.flatMap((result) => result.events);
  return {
    'suite.streams': [...new Set(events.map((event) => event.stream))],
    'suite.events': events.length,
    ...(events.length > 0 && { 'suite.position': (events[events.length - 1] as StoredEvent).position }),
    'suite.idempotent_replay': results.some((result) => result.duplicateOf !== undefined),
  };
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
