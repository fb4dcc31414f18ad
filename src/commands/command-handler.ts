import type { EventCatalog } from '../events/catalog';
import type { EventMetadata, NewEvent, StoredEvent } from '../events/envelope';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type IdempotencyClaim,
  type PendingEvent,
  type StreamAppend,
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
 * Decides (`decideAll`: on one stream, or on several whose changes are appended together, in the order
 * given), validates the new events against their schemas and appends them at once
 * (`EventStore.appendAll`), each stream at the revision its decision was based on, the idempotency
 * claim with the events of the decision `keyed`. A concurrent writer makes the append fail; everything
 * is then decided again on the newer state, a few times before the conflict is reported.
 */
export async function handleDecisions(
  environment: CommandEnvironment,
  decideAll: () => Promise<{ decisions: Decision[]; keyed: Decision }>,
): Promise<CommandResult[]> {
  for (let attempt = 1; ; attempt++) {
    const { decisions, keyed } = await inSpan(
      'command.decide',
      { attributes: { 'suite.attempt': attempt } },
      async (span) => {
        const decided = await decideAll();
        span?.setAttributes({
          'suite.streams': decided.decisions.map((decision) => decision.stream),
          'suite.events': decided.decisions.reduce((sum, decision) => sum + decision.events.length, 0),
        });
        return decided;
      },
    );
    const changed = decisions.filter((decision) => decision.events.length > 0);
    const unchanged = ({ stream, history }: Decision) => ({ stream, outcome: { history, events: [] } });
    if (changed.length === 0) return decisions.map(unchanged);
    const appends = changed.map((decision): StreamAppend => ({
      stream: decision.stream,
      events: stamp(environment.catalog, decision.events),
      options: {
        expectedRevision: decision.history[decision.history.length - 1]?.revision ?? 'no_stream',
        metadata: environment.metadata,
        eventIds: decision.events.map(() => environment.eventId()),
        idempotency: decision === keyed ? environment.idempotency : undefined,
      },
    }));
    const outcome = (decision: Decision, result: AppendResult | undefined) =>
      result
        ? { stream: decision.stream, outcome: { history: decision.history, ...result } }
        : unchanged(decision);
    try {
      const results = await inSpan('event_store.append', {}, async (span) => {
        const appended = await environment.eventStore.appendAll(
          appends.map((part) => ({
            ...part,
            options: { ...part.options, metadata: withTraceContext(environment.metadata) },
          })),
        );
        span?.setAttributes(appendAttributes(appended));
        return appended;
      });
      return decisions.map((decision) => outcome(decision, results[changed.indexOf(decision)]));
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      // A store that appends stream by stream may have stored the keyed decision before a later part
      // was refused: that decision stands, and deciding it again would refuse it as done.
      const keyedAppend = appends[changed.indexOf(keyed)];
      const stored = keyedAppend && (await storedAlready(environment.eventStore, keyedAppend));
      if (stored)
        return decisions.map((decision) => outcome(decision, decision === keyed ? stored : undefined));
      if (attempt === ATTEMPTS) throw error;
    }
  }
}

/** The events of `part` if the store holds them where the part put them (its event ids after its revision). */
async function storedAlready(eventStore: EventStore, part: StreamAppend): Promise<AppendResult | undefined> {
  const { expectedRevision, eventIds = [] } = part.options;
  const from = typeof expectedRevision === 'number' ? expectedRevision + 1 : 0;
  const events = (await eventStore.readStream(part.stream, { toRevision: from + eventIds.length - 1 })).slice(
    from,
  );
  const same =
    events.length === eventIds.length &&
    events.every((event, index) => event.event_id.toLowerCase() === eventIds[index]?.toLowerCase());
  return same ? { events } : undefined;
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
