import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino, { type Logger } from 'pino';

/**
 * Lines a blocked standard output may hold in memory before new ones are dropped (`sonic-boom`'s
 * `maxLength`, in characters): a log collector that stopped reading must not take the process down.
 */
const MAX_BUFFERED_LOG = 16 * 2 ** 20;

/**
 * Lines buffered before they are written (in characters), unless `LOG_FLUSH_MS` passes first: a write
 * per line costs a request log more than the line itself does.
 */
const LOG_WRITE_AT = 4096;
/** How long a line waits in the buffer at most. */
const LOG_FLUSH_MS = 200;

/**
 * JSON lines on standard output, written asynchronously and together: lines are buffered, and the
 * buffer written while the process goes on serving once it holds `LOG_WRITE_AT` characters or
 * `LOG_FLUSH_MS` has passed. What is buffered is written synchronously when the process exits (pino
 * registers the flush).
 */
export function createLogger(level: string): Logger {
  return pino(
    { level },
    pino.destination({
      dest: 1,
      sync: false,
      minLength: LOG_WRITE_AT,
      periodicFlush: LOG_FLUSH_MS,
      maxLength: MAX_BUFFERED_LOG,
    }),
  );
}

const CLIENT_TOKEN = /^[\w.:-]{1,128}$/;

/** A caller-supplied id (`X-Request-Id`, `X-Correlation-Id`) when it is a sane token; else undefined. */
export function clientToken(value: unknown): string | undefined {
  return typeof value === 'string' && CLIENT_TOKEN.test(value) ? value : undefined;
}

/** The caller's `X-Request-Id` when it is a sane token, a new UUID otherwise. */
export function requestIdOf(req: IncomingMessage): string {
  return clientToken(req.headers['x-request-id']) ?? randomUUID();
}

/** One line per answered request; headers are never logged, so neither are tokens. */
export function logCompleted(
  logger: Logger,
  req: IncomingMessage,
  id: string,
  statusCode: number,
  started: number,
): void {
  if (!logger.isLevelEnabled('info')) return;
  const responseTime = Math.round(performance.now() - started);
  const level = statusCode >= 500 ? 'error' : 'info';
  logger[level](
    { req: { id, method: req.method, url: req.url }, res: { statusCode }, responseTime },
    'request completed',
  );
}
