import { documentIdOf, foldedSteps } from '../audit/record-history';
import type { Clock } from '../clock';
import type { SuiteCatalog } from '../events/catalog';
import type { StoredEvent } from '../events/envelope';
import { UnknownPositionError, type EventStore } from '../events/event-store';
import { sealedForSubjects } from '../privacy/erase';
import type { DocumentProjection } from '../projections/projection';
import type { Document, DocumentId } from '../projections/read-store';
import {
  seesScope,
  type Change,
  type ChangeFeed,
  type ChangePage,
  type FeedResource,
  type FeedViewer,
  type ModuleFeed,
} from './change';
import { ALL, START, cursorExpired, decodeCursor, encodeCursor, type FeedPosition } from './cursor';

/** Events read from the log at once. */
const PAGE = 1_000;
/** The most events one read looks at: a viewer who may see few of them gets a page that may be empty, and `has_more`. */
const MOST_SCANNED = 20_000;

/** What a module's feed reads. */
export interface FeedSources {
  /** The log as deciders read it (opened, upcast): records are folded from it. */
  events: EventStore;
  /** The log as stored: whose records an erasure touched is read from their sealed values. */
  storedEvents: EventStore;
  catalog: SuiteCatalog;
  /** Today, for what a record's presentation derives from the day (as a read as of a position does). */
  clock: Clock;
  /**
   * The position up to which erasures are done (their documents folded again, the read models
   * purged): the feed shows no erasure before it is, as the reads show none before.
   */
  erasuresDone(): Promise<number>;
}

/** A record an event changed: the change is `erase` where an erasure touched it. */
interface Target {
  resource: FeedResource;
  id: DocumentId;
  erased: boolean;
}

const ERASED = 'SubjectErased';

/**
 * A module's change feed over the log: for each of its events, in log order, a change of each record
 * its resources' projections fold it into, with the record as folded up to that event; for each
 * erasure, an `erase` change of each of the module's records that held the subject's personal data,
 * then that record as it reads now (`upsert`). A change's cursor is its event's position and its index
 * among the event's changes, so cursors hold across restarts and rebuilds, and whoever reads the feed.
 */
export function changeFeed(sources: FeedSources, feed: ModuleFeed): ChangeFeed {
  const { events, storedEvents, catalog } = sources;
  const projections = new Map<string, DocumentProjection>(
    feed.resources.map((resource) => {
      const projection = feed.projector.projections.find((p) => p.collection === resource.collection);
      if (!projection) throw new Error(`No projection of ${feed.module} folds ${resource.collection}`);
      return [resource.collection, projection];
    }),
  );
  const projectionOf = (resource: FeedResource) => projections.get(resource.collection) as DocumentProjection;

  let logTag: string | undefined;
  async function scope() {
    if (logTag === undefined) {
      const [first] = await storedEvents.readAll({ after: 0, limit: 1 });
      if (!first) return { module: feed.module, log: '-' };
      logTag = first.hash.slice(0, 16);
    }
    return { module: feed.module, log: logTag };
  }

  function recordsOf(event: StoredEvent, erased: boolean): Target[] {
    return feed.resources.flatMap((resource) => {
      const projection = projectionOf(resource);
      if (!projection.handles.includes(event.type)) return [];
      const id = documentIdOf(catalog, projection, event);
      return id === undefined ? [] : [{ resource, id, erased }];
    });
  }

  // An erasure's records are found by a scan of the log as stored: once per process.
  const erasedRecords = new Map<number, Promise<Target[]>>();
  function recordsErasedBy(erasure: StoredEvent): Promise<Target[]> {
    let found = erasedRecords.get(erasure.position);
    if (!found) {
      found = (async () => {
        const { subject } = erasure.data as { subject: string };
        const { positions } = await sealedForSubjects(storedEvents, new Set([subject]), erasure.position);
        const targets = new Map<string, Target>();
        for (const position of positions) {
          const event = await storedEvents.eventAt(position);
          if (!event?.stream.startsWith(`${feed.module}.`)) continue;
          for (const target of recordsOf(event, true)) {
            targets.set(`${target.resource.path}/${target.id}`, target);
          }
        }
        return [...targets.values()];
      })();
      erasedRecords.set(erasure.position, found);
    }
    return found;
  }

  const targetsOf = (event: StoredEvent): Promise<Target[]> | Target[] =>
    event.type === ERASED && event.stream.startsWith('privacy.')
      ? recordsErasedBy(event)
      : event.stream.startsWith(`${feed.module}.`)
        ? recordsOf(event, false)
        : [];

  /** The changes a target stands for: an erased record is erased, then written as it reads now. */
  const changesOf = (targets: Target[]) =>
    targets.flatMap((target) =>
      target.erased
        ? [
            { target, op: 'erase' as const },
            { target, op: 'upsert' as const },
          ]
        : [{ target, op: 'upsert' as const }],
    );

  /** The last position the feed may show: the head, or before the first erasure not done yet. */
  async function readableUntil(head: number): Promise<number> {
    const done = await sources.erasuresDone();
    if (done >= head) return head;
    const [pending] = await storedEvents.queryLog({
      module: 'privacy',
      type: ERASED,
      after: done,
      until: head,
      limit: 1,
    });
    return pending ? pending.position - 1 : head;
  }

  return {
    cursorAfter: async (position) => encodeCursor(await scope(), { position, taken: ALL }),
    async read(after, limit, viewer, resourcePath): Promise<ChangePage> {
      const cursorScope = await scope();
      const head = await storedEvents.headPosition();
      const from: FeedPosition =
        after === undefined
          ? START
          : after === 'now'
            ? { position: head, taken: ALL }
            : decodeCursor(cursorScope, after);
      if (from.position > head) throw cursorExpired(feed.module, 'The log does not reach this cursor');
      const until = await readableUntil(head);

      // Each read folds a record's events once, however many of its changes the page holds.
      const stories = new Map<string, Promise<StoredEvent[]>>();
      const storyOf = (target: Target) => {
        const key = `${target.resource.path}/${target.id}`;
        let story = stories.get(key);
        if (!story) {
          story = recordEventsOf(target);
          stories.set(key, story);
        }
        return story;
      };
      // A record without a stream of its own: one scan of the module's events gathers every such
      // record's of the resource at once.
      const byRecord = new Map<string, Promise<Map<string, StoredEvent[]>>>();
      const gathered = (resource: FeedResource) => {
        let found = byRecord.get(resource.path);
        if (!found) {
          found = eventsByRecord(events, feed.module, catalog, projectionOf(resource));
          byRecord.set(resource.path, found);
        }
        return found;
      };
      const recordEventsOf = async ({ resource, id }: Target) => {
        const stream = projectionOf(resource).stream;
        return stream ? events.readStream(stream(id)) : ((await gathered(resource)).get(String(id)) ?? []);
      };

      /** The change as the viewer may see it, or null when they may not read the record. */
      async function presented(
        event: StoredEvent,
        target: Target,
        op: 'upsert' | 'erase',
      ): Promise<Change | null> {
        const { resource, id } = target;
        const story = (await storyOf(target)).filter((own) => own.position <= event.position);
        const steps = foldedSteps(catalog, projectionOf(resource), story);
        const now = steps.at(-1)?.record ?? null;
        // Deleted: whoever could read it last may know it is gone.
        const last = now ?? [...steps].reverse().find((step) => step.record !== null)?.record ?? null;
        if (last === null) return null;
        const at = sources.clock.now();
        if (resource.present(last, viewer, at) === null) return null;
        const change: Change = {
          cursor: '',
          resource: resource.path,
          id,
          op: op === 'erase' ? 'erase' : now === null ? 'delete' : 'upsert',
          position: event.position,
          occurred_at: event.metadata.occurred_at,
        };
        if (change.op === 'upsert') change.record = resource.present(now as Document, viewer, at) as Document;
        return change;
      }

      const data: Change[] = [];
      let at = from;
      let scanned = 0;
      let hasMore = false;
      /** Takes the event's changes after the first `skip`; false once the page is full. */
      async function take(event: StoredEvent, skip: number): Promise<boolean> {
        const changes = changesOf(await targetsOf(event));
        for (let index = skip; index < changes.length; index++) {
          if (data.length === limit) {
            at = { position: event.position, taken: index };
            return false;
          }
          const { target, op } = changes[index] as (typeof changes)[number];
          if (resourcePath !== undefined && target.resource.path !== resourcePath) continue;
          const change = await presented(event, target, op);
          if (change)
            data.push({
              ...change,
              cursor: encodeCursor(cursorScope, { position: event.position, taken: index + 1 }),
            });
        }
        at = { position: event.position, taken: ALL };
        return true;
      }

      if (from.taken !== ALL && from.position > 0) {
        const event = from.position <= until ? await storedEvents.eventAt(from.position) : null;
        if (!event) throw cursorExpired(feed.module, 'No event of the log is where this cursor stands');
        if (!(await take(event, from.taken))) hasMore = true;
      }
      scan: while (!hasMore) {
        let page: StoredEvent[];
        try {
          const modules = [feed.module, 'privacy'];
          page = await storedEvents.queryLog({ module: modules, after: at.position, until, limit: PAGE });
        } catch (error) {
          if (!(error instanceof UnknownPositionError)) throw error;
          throw cursorExpired(feed.module, 'No event of the log is where this cursor stands');
        }
        for (const event of page) {
          if (!(await take(event, 0))) {
            hasMore = true;
            break scan;
          }
        }
        scanned += page.length;
        if (page.length < PAGE) break;
        if (scanned >= MOST_SCANNED) {
          hasMore = true;
          break;
        }
      }
      return { data, meta: { next: encodeCursor(cursorScope, at), has_more: hasMore } };
    },
  };
}

/** The events of a module that a projection folds, by the id of the document each belongs to. */
async function eventsByRecord(
  events: EventStore,
  module: string,
  catalog: SuiteCatalog,
  projection: DocumentProjection,
): Promise<Map<string, StoredEvent[]>> {
  const found = new Map<string, StoredEvent[]>();
  for (let after = 0; ;) {
    const page = await events.queryLog({ module, type: projection.handles, after, limit: PAGE });
    for (const event of page) {
      const id = documentIdOf(catalog, projection, event);
      if (id === undefined) continue;
      const own = found.get(String(id));
      if (own) own.push(event);
      else found.set(String(id), [event]);
    }
    if (page.length < PAGE) return found;
    after = (page.at(-1) as StoredEvent).position;
  }
}

/** The viewer's scope, for a record confined to one (`scopeField`): null when it is another's. */
export function inScope(doc: Document, field: string | undefined, viewer: FeedViewer): Document | null {
  return field === undefined || seesScope(viewer, doc[field]) ? doc : null;
}
