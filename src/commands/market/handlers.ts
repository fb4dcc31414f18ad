import { eventCatalog } from '../../events/catalog';
import { marketCategories, marketEvents, marketStreams, type MarketEventOf } from '../../events/market';
import { appendRuns, eventBytes } from '../../events/append-size';
import { WrongExpectedRevisionError } from '../../events/event-store';
import { creationData, type CommandContext } from '../context';
import { DomainError } from '../errors';
import { moduleCommands } from '../module-commands';
import { competitorDecider, locationDecider } from './catalogue';
import { figuresDecider, type RecordFigures } from './figures';
import {
  batchDecider,
  observationProblems,
  observedEvent,
  type ObservationFacts,
  type ObservationInput,
} from './observations';
import { sessionDecider } from './sessions';
import { threadDecider, type RecordExchange } from './threads';

const { run, create } = moduleCommands(eventCatalog(marketEvents));

export type CompetitorInput = Omit<MarketEventOf<'CompetitorVerified'>['data'], 'id'>;

export function verifyCompetitor(context: CommandContext, competitor: CompetitorInput) {
  return create(context, marketCategories.competitor, competitorDecider, (id) => ({
    type: 'VerifyCompetitor' as const,
    competitor: { id, ...competitor },
  }));
}

export type LocationInput = Omit<MarketEventOf<'LocationGeocoded'>['data'], 'id' | 'competitor_name'>;

export function geocodeLocation(context: CommandContext, location: LocationInput) {
  return create(context, marketCategories.location, locationDecider, async (id) => {
    const competitor = await creationData<MarketEventOf<'CompetitorVerified'>['data']>(
      context,
      marketStreams.competitor(location.competitor_id),
    );
    return {
      type: 'GeocodeLocation' as const,
      location: { id, ...location, competitor_name: competitor?.name ?? '' },
      competitorExists: competitor !== undefined,
    };
  });
}

/** The competitors and locations a set of observations refers to, as their streams record them. */
export async function observationFacts(
  context: CommandContext,
  rows: readonly Pick<ObservationInput, 'competitor_id' | 'location_id'>[],
): Promise<ObservationFacts> {
  const competitors = new Map<number, { name: string }>();
  const locations = new Map<number, { competitor_id: number; country: string; city: string }>();
  for (const id of new Set(rows.map((row) => row.competitor_id))) {
    if (!Number.isSafeInteger(id) || id < 1) continue;
    const data = await creationData<{ name: string }>(context, marketStreams.competitor(id));
    if (data) competitors.set(id, { name: data.name });
  }
  for (const id of new Set(rows.map((row) => row.location_id))) {
    if (!Number.isSafeInteger(id) || id < 1) continue;
    const data = await creationData<MarketEventOf<'LocationGeocoded'>['data']>(
      context,
      marketStreams.location(id),
    );
    if (data)
      locations.set(id, { competitor_id: data.competitor_id, country: data.country, city: data.city });
  }
  return { competitors, locations };
}

const ATTEMPTS = 5;

/**
 * Records observations in batches of one append each, as many as fit (`MAX_APPEND_BYTES`): every
 * row is checked before the first batch is written, so a bad row rejects them all; the batches are
 * appended one after the other, each to a stream of its own and whole: an import that stops leaves
 * whole batches of valid observations. Answers each batch's result.
 */
export async function recordObservations(
  context: CommandContext,
  rows: readonly ObservationInput[],
  facts?: ObservationFacts,
) {
  const known = facts ?? (await observationFacts(context, rows));
  const rejected = rows.filter((row) => observationProblems(row, known).length > 0).length;
  if (rejected > 0) {
    // The batch decider names every bad row.
    return [await recordBatch(context, rows, known)];
  }
  const metadata = context.metadata();
  // Sized with the longest id a row can take, so that no run outgrows the bound once it has its ids.
  const runs = appendRuns(rows, (row) =>
    eventBytes(observedEvent(Number.MAX_SAFE_INTEGER, row, known), metadata),
  );
  const results = [];
  for (const run of runs) results.push(await recordBatch(context, run, known));
  return results;
}

/**
 * Records a batch of observations in one append: the rows take the next observation ids, and the
 * batch's stream is numbered by the last of them (so the allocator finds the highest id after a
 * restart). Either every row is recorded or, when one breaks a rule, none is.
 */
async function recordBatch(
  context: CommandContext,
  rows: readonly ObservationInput[],
  known: ObservationFacts,
) {
  for (let attempt = 1; ; attempt++) {
    const ids: number[] = [];
    for (let index = 0; index < rows.length; index++)
      ids.push(await context.ids.next(marketCategories.batch));
    const last = ids[ids.length - 1] ?? 0;
    try {
      return await run(context, marketStreams.batch(last), batchDecider, {
        type: 'RecordObservations',
        ids,
        rows,
        facts: known,
      });
    } catch (error) {
      // Another process took these ids first: take the next free ones.
      const taken =
        error instanceof WrongExpectedRevisionError ||
        (error instanceof DomainError && error.code === 'already_exists');
      if (!taken || attempt === ATTEMPTS) throw error;
      await context.ids.refresh(marketCategories.batch);
    }
  }
}

export function recordFigures(context: CommandContext, figures: RecordFigures['figures']) {
  return run(context, marketStreams.figures, figuresDecider, { type: 'RecordFigures', figures });
}

export function recordExchange(context: CommandContext, exchange: Omit<RecordExchange, 'type'>) {
  return run(context, marketStreams.thread(exchange.thread.id), threadDecider, {
    type: 'RecordExchange',
    ...exchange,
  });
}

export function startSession(context: CommandContext, session: MarketEventOf<'SessionStarted'>['data']) {
  return run(context, marketStreams.session(session.session_id), sessionDecider, {
    type: 'StartSession',
    session,
  });
}

export function endSession(context: CommandContext, session: MarketEventOf<'SessionEnded'>['data']) {
  return run(context, marketStreams.session(session.session_id), sessionDecider, {
    type: 'EndSession',
    session,
  });
}
