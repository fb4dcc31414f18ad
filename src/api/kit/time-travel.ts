import { withRecordTimes } from './record-times';
import { z } from 'zod';
import { recordAsOf, type LogCut, type RecordRef } from '../../audit/record-history';
import { isoDate, parseIsoTime } from '../../clock';
import type { SuiteCatalog } from '../../events/catalog';
import type { EventStore } from '../../events/event-store';
import { positionRecordedBy } from '../../events/recording-time';
import type { Document, DocumentId } from '../../projections/read-store';
import type { ModuleDefinition } from './module';
import { ApiError, validationError } from './errors';
import { integerParameter, shortened, zodDetails, type ValidationDetail } from './validation';

/** What a read needs to fold a record as of a point in time: the log (opened) and the catalog. */
export interface TimeTravelServices {
  eventStore: EventStore;
  catalog: SuiteCatalog;
}

const TIME = 'a UTC date (YYYY-MM-DD, its start) or timestamp (YYYY-MM-DDTHH:MM:SSZ, milliseconds allowed)';

function timeParameter() {
  return z
    .string()
    .refine((text) => parseIsoTime(text) !== null, {
      message: `Input should be ${TIME}`,
      params: { type: 'datetime_parsing' },
    })
    .meta({ type: 'string', description: TIME });
}

/** The query parameters of a record read (and a record's history) that ask for a point in time. */
export const TimeTravelParameters = {
  as_of: timeParameter().optional().meta({
    description:
      'Recording time: the record as the suite had recorded it by then (the log up to the last position recorded by it; a time to come reads as now). Not with as_of_position.',
  }),
  as_of_position: integerParameter({ min: 0 }).optional().meta({
    description: 'The record as the log up to this position (at most its head) made it. Not with as_of.',
  }),
  valid_at: timeParameter().optional().meta({
    description:
      'Business time: only the events that occurred (occurred_at) at or before it, in log order: what was true then. Combines with as_of or as_of_position (as known by then).',
  }),
};

export const TimeTravelQuery = z.object(TimeTravelParameters);
export type TimeTravelQuery = z.infer<typeof TimeTravelQuery>;

/** The names of the parameters, to tell a plain read from one that travels. */
export const TIME_TRAVEL_PARAMETERS = Object.keys(TimeTravelParameters) as (keyof TimeTravelQuery)[];

export const travels = (query: TimeTravelQuery): boolean =>
  TIME_TRAVEL_PARAMETERS.some((name) => query[name] !== undefined);

/** `meta` of an answer as of a point in time: the parameters as given, and the position it reflects. */
export const TimeTravelMeta = z
  .object({
    as_of: z.string().optional(),
    as_of_position: z.number().int().optional(),
    valid_at: z.string().optional(),
    position: z.number().int().meta({ description: 'The log position of the last event folded' }),
  })
  .meta({ id: 'TimeTravelMeta' });
export type TimeTravelMeta = z.infer<typeof TimeTravelMeta>;

/** The answer of a record read as of a point in time. */
export const asOfAnswer = (record: z.ZodType, id: string) =>
  z.object({ data: withRecordTimes(record), meta: TimeTravelMeta }).meta({ id });

/** Parses the time-travel parameters of a query string (the router refuses one given twice). */
export function timeTravelQuery(query: Pick<URLSearchParams, 'get'>): TimeTravelQuery | ValidationDetail[] {
  const given = Object.fromEntries(
    TIME_TRAVEL_PARAMETERS.flatMap((name) => {
      const value = query.get(name);
      return value === null ? [] : [[name, value]];
    }),
  );
  const parsed = TimeTravelQuery.safeParse(given, { reportInput: true });
  return parsed.success ? parsed.data : zodDetails(parsed.error, 'query');
}

/** The cut the parameters name, or the detail naming the one that cannot be read. */
export async function timeTravelCut(
  store: Pick<EventStore, 'eventAt' | 'headPosition' | 'readAll'>,
  query: TimeTravelQuery,
): Promise<LogCut | ValidationDetail> {
  const { as_of, as_of_position, valid_at } = query;
  if (as_of !== undefined && as_of_position !== undefined) {
    return {
      loc: ['query', 'as_of_position'],
      msg: 'as_of and as_of_position exclude each other: give one of them',
      type: 'value_error',
      input: as_of_position,
    };
  }
  const head = await store.headPosition();
  if (as_of_position !== undefined && as_of_position > head) {
    return {
      loc: ['query', 'as_of_position'],
      msg: `Input should be at most the log's head position, ${head}`,
      type: 'less_than_equal',
      input: as_of_position,
      ctx: { le: head },
    };
  }
  const position =
    as_of_position ??
    (as_of === undefined ? head : await positionRecordedBy(store, parseIsoTime(as_of) as Date));
  return valid_at === undefined ? { position } : { position, validAt: parseIsoTime(valid_at) as Date };
}

/** A record as of a point in time, in the answer's shape. */
export interface TravelledRecord {
  data: Document;
  meta: TimeTravelMeta;
}

/**
 * The record folded by its own projection from its events within the cut the parameters name: the
 * record, null when it did not exist then, or the detail naming a parameter that cannot be read.
 */
export async function travelledRecord(
  services: TimeTravelServices,
  record: RecordRef,
  query: TimeTravelQuery,
): Promise<TravelledRecord | null | ValidationDetail> {
  const cut = await timeTravelCut(services.eventStore, query);
  if ('loc' in cut) return cut;
  const found = await recordAsOf({ events: services.eventStore, catalog: services.catalog }, record, cut);
  return found && { data: found.record, meta: { ...query, position: found.position } };
}

/**
 * One record of a module's read model, and where its events are: `collection` is a resource's, or one
 * the module's own routes serve.
 */
export function moduleRecord(
  module: Pick<ModuleDefinition, 'id' | 'projector'>,
  collection: string,
  id: DocumentId,
  described: { name: string; path: string },
): RecordRef {
  const projection = module.projector.projections.find((candidate) => candidate.collection === collection);
  if (!projection) throw new Error(`No projection of ${module.id} folds ${collection}`);
  return {
    module: module.id,
    projection,
    id,
    name: described.name,
    target: `${module.id} ${described.path}/${id}`,
  };
}

/**
 * A module route's answer of one record as of a point in time, `present`ed as the route presents its
 * records (null: not the caller's to see, as one of another scope); 404 when it did not exist then, 422
 * naming a parameter that cannot be read.
 */
export async function travelledAnswer(
  services: TimeTravelServices,
  record: RecordRef,
  query: TimeTravelQuery,
  present: (doc: Document) => unknown,
): Promise<{ status: 200; body: { data: unknown; meta: TimeTravelMeta } }> {
  const found = await travelledRecord(services, record, query);
  if (found !== null && 'loc' in found) throw validationError([found]);
  const data = found && present(found.data);
  if (!found || data === null) {
    throw new ApiError('not_found', `${record.name} ${shortened(String(record.id))} not found then`);
  }
  return { status: 200, body: { data, meta: found.meta } };
}

/**
 * The day a record read as of a point in time derives its figures for (due, overdue): the day of
 * `valid_at`, else of `as_of`, else today; never a day to come.
 */
export function travelDay(query: TimeTravelQuery, now: Date): string {
  const asked = parseIsoTime(query.valid_at ?? query.as_of ?? '');
  return isoDate(asked && asked < now ? asked : now);
}
