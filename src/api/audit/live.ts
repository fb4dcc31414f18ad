import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { StoredEvent } from '../../events/envelope';
import { UnknownPositionError, type EventStore, type LogQuery } from '../../events/event-store';
import { servedEvents, type ServedEvent } from '../../privacy/served-events';
import type { SubjectKeyStore } from '../../privacy/subject-keys';
import { drainedOrGone } from '../kit/sse';
import { checkReadable, LogFilters } from './log';
import type { AuditRoute } from './services';

const HEARTBEAT_MS = 15_000;

const TailFilters = LogFilters.omit({ limit: true, until: true });

/**
 * Streams the log after a position (the head, by default), then every new event as it is committed,
 * each as stored with its personal values opened beside (`ServedEvent`).
 */
function liveTail(
  store: EventStore,
  keys: SubjectKeyStore,
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  filters: Omit<LogQuery, 'limit' | 'after'> & { after?: number },
) {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
  let closed = false;
  let pumping = false;
  let again = false;
  let position: number | undefined = filters.after;

  const send = (event: ServedEvent) =>
    res.write(`id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);

  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      position ??= await store.headPosition();
      do {
        again = false;
        for (;;) {
          const page = await store.queryLog({ ...filters, after: position, limit: 500 });
          if (closed || page.length === 0) break;
          for (const event of await servedEvents(page, keys)) send(event);
          position = (page[page.length - 1] as StoredEvent).position;
          // A slow client holds the tail back; one that leaves releases it.
          if (res.writableNeedDrain) await drainedOrGone(res);
        }
      } while (again && !closed);
    } finally {
      pumping = false;
    }
  }

  // An event that cannot be sent (nested too deep to serialise) ends this tail, not the process.
  const pumpOrEnd = () =>
    void pump().catch((error: unknown) => {
      logger.error({ err: error }, 'live tail failed');
      closed = true;
      res.end();
    });
  const unsubscribe = store.onAppended(pumpOrEnd);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  req.on('close', () => {
    closed = true;
    unsubscribe();
    clearInterval(heartbeat);
  });
  pumpOrEnd();
}

const tailEvents: AuditRoute<z.infer<typeof TailFilters>> = {
  method: 'get',
  path: '/api/v1/events/live',
  operation: 'tailEvents',
  summary: 'Server-sent events tail of the log; resume with `after` or `Last-Event-ID`',
  role: 'auditor',
  query: TailFilters,
  responses: {
    200: {
      description:
        'The log from `after` on: `id` = position, `event` = type, `data` = the event envelope (as stored, with `opened` beside)',
      mediaType: 'text/event-stream',
      schema: z.string().meta({ description: 'Server-sent events' }),
    },
    422: { description: 'Invalid parameter' },
  },
  async handle(
    { query: filters, header, requestId, req, res },
    { storedEvents, subjectKeys, logger, catalog },
  ) {
    if (!req || !res) throw new Error('the live tail was called without its exchange');
    checkReadable(filters, catalog);
    const resumeFrom = header('last-event-id');
    const after = filters.after ?? (resumeFrom && /^\d+$/.test(resumeFrom) ? Number(resumeFrom) : undefined);
    // Checked before the stream starts, so that a bad cursor is answered 422 rather than a closed tail.
    if (after && !(await storedEvents.eventAt(after))) throw new UnknownPositionError(after);
    res.setHeader('X-Request-Id', requestId);
    liveTail(storedEvents, subjectKeys, logger, req, res, { ...filters, after });
    return 'streamed';
  },
};

/** The log as it grows, over server-sent events. */
export const liveRoutes = [tailEvents];
