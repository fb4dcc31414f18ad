import { z } from 'zod';
import type { ChangeFeed, ChangePage, FeedViewer } from '../../changes/change';
import type { EventStore } from '../../events/event-store';
import type { ModuleServices } from '../../modules/module';
import type { ModuleDefinition, ModuleRoute } from './module';
import { openSse } from './sse';
import { ChangePageSchema } from './change-schema';
import { integerParameter } from './validation';

/** The longest a read waits for a change (`wait`), in seconds. */
export const MOST_WAIT_SECONDS = 30;
const DEFAULT_LIMIT = 100;
const MOST_LIMIT = 1_000;
/** How often a waiting read looks again even when no append woke it (another process's erasure done, say). */
const LOOK_AGAIN_MS = 1_000;
const KEEP_ALIVE_MS = 15_000;

function changesQuery(module: ModuleDefinition) {
  const resources = [...module.resources.map((r) => r.path), ...(module.changes ?? []).map((r) => r.path)];
  return z.object({
    after: z.string().max(512).optional().meta({
      description:
        'A cursor from a change or from `meta.next` (absent: from the first change; `now`: from the head of the log). With server-sent events, `Last-Event-ID` stands for it',
    }),
    limit: integerParameter({ min: 1, max: MOST_LIMIT })
      .optional()
      .meta({ description: `The most changes answered (default ${DEFAULT_LIMIT})` }),
    wait: integerParameter({ min: 0, max: MOST_WAIT_SECONDS })
      .optional()
      .meta({
        description: `Seconds to wait for a change when there is none yet (long polling; at most ${MOST_WAIT_SECONDS})`,
      }),
    resource: z
      .enum(resources as [string, ...string[]])
      .optional()
      .meta({ description: 'Only the changes of this resource' }),
  });
}

type ChangesQuery = z.infer<ReturnType<typeof changesQuery>>;

/** Resolves at the next append, after `ms`, or when aborted, whichever comes first; leaves no listener. */
function nextAppend(log: EventStore, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = log.onAppended(done);
    signal.addEventListener('abort', done);
  });
}

interface FeedRead {
  feed: ChangeFeed;
  log: EventStore;
  viewer: FeedViewer;
  limit: number;
  resource?: string;
}

/** A page of changes; with none yet, waits up to `waitMs` for one (looking again at each append). */
async function readWaiting(
  { feed, log, viewer, limit, resource }: FeedRead,
  after: string | undefined,
  waitMs: number,
  signal: AbortSignal,
): Promise<ChangePage> {
  const deadline = Date.now() + waitMs;
  for (let from = after; ;) {
    const page = await feed.read(from, limit, viewer, resource);
    const left = deadline - Date.now();
    if (page.data.length > 0 || page.meta.has_more || left <= 0 || signal.aborted) return page;
    from = page.meta.next;
    await nextAppend(log, Math.min(left, LOOK_AGAIN_MS), signal);
  }
}

/** Streams the changes after `after` as server-sent events (`id` = the change's cursor), then each new one. */
async function streamChanges(read: FeedRead, after: string | undefined, stream: ReturnType<typeof openSse>) {
  const keepAlive = setInterval(() => stream.keepAlive(), KEEP_ALIVE_MS);
  try {
    for (let from = after; !stream.signal.aborted;) {
      const page = await readWaiting(read, from, KEEP_ALIVE_MS, stream.signal);
      for (const change of page.data) stream.send('change', change, change.cursor);
      from = page.meta.next;
      await stream.drained();
    }
  } finally {
    clearInterval(keepAlive);
    stream.end();
  }
}

/** The weight (q) an Accept header gives a media type; -1 when it does not name it. */
function weightOf(accept: string, mediaType: string): number {
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== mediaType) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    return q === undefined ? 1 : Number(q.slice(2)) || 0;
  }
  return -1;
}

/** Streamed when the client prefers events to JSON (a client that takes both gets JSON). */
const wantsStream = (accept = '') =>
  weightOf(accept, 'text/event-stream') > Math.max(weightOf(accept, 'application/json'), 0);

/** `GET /api/v1/changes`: the module's record changes after a cursor, as a page, a long poll, or a stream. */
export function changeRoutes(module: ModuleDefinition): ModuleRoute[] {
  const route: ModuleRoute<ChangesQuery, unknown, ModuleServices> = {
    method: 'get',
    path: '/api/v1/changes',
    operation: 'listChanges',
    summary:
      'The changes of the module\u2019s records after a cursor, in log order: to keep a copy in step (long polling with wait, or server-sent events)',
    tags: ['changes'],
    query: changesQuery(module),
    responses: {
      200: {
        description:
          'The changes after the cursor that the caller may read, and the cursor to read on from. An erasure gives an erase change of each record it touched, then the record as it reads now',
        schema: ChangePageSchema,
        stream:
          'With Accept: text/event-stream, the same changes as events (`id`: the change\u2019s cursor, `event: change`, `data`: the change), then each new one as it is recorded',
      },
      410: {
        description:
          'A cursor this feed did not give, or that the log no longer reaches (`cursor_expired`): start again',
      },
      422: { description: 'Invalid parameter' },
    },
    async handle({ query, caller, header, req, res }, services) {
      const feed = services.changes.get(module.id);
      if (!feed) throw new Error(`No change feed of ${module.id}`);
      const read: FeedRead = {
        feed,
        log: services.eventStore,
        viewer: { scope: caller.scope },
        limit: query.limit ?? DEFAULT_LIMIT,
        resource: query.resource,
      };
      const after = query.after ?? header('last-event-id');
      if (req && res && wantsStream(header('accept'))) {
        // A bad cursor is answered 410 before the stream starts.
        const first = await feed.read(after, read.limit, read.viewer, read.resource);
        const stream = openSse(res);
        for (const change of first.data) stream.send('change', change, change.cursor);
        void streamChanges(read, first.meta.next, stream).catch((error: unknown) => {
          services.logger.error({ err: error }, 'change stream failed');
        });
        return 'streamed';
      }
      const gone = new AbortController();
      res?.once('close', () => gone.abort());
      const page = await readWaiting(read, after, (query.wait ?? 0) * 1000, gone.signal);
      return { status: 200, body: page };
    },
  };
  return [route as ModuleRoute];
}
