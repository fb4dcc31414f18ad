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

/**
 * Query parameters whose values say how a list is cut, never who is in it: logged as they are. Every
 * other parameter (`q`, a filter on a name or an address) may carry personal data, which no erasure
 * reaches once written to a log: only its length is logged.
 */
const STRUCTURAL_PARAMETERS = new Set([
  'limit',
  'offset',
  'after',
  'until',
  'position',
  'index',
  'tree_size',
  'sort',
  'order',
  'page',
  'from',
  'to',
  'module',
  'type',
  'status',
]);
/** An id filter (`employee_id=42`) is kept when it is a number, as ids are; anything else is free text. */
const isStructural = (name: string, value: string) =>
  STRUCTURAL_PARAMETERS.has(name) || (name.endsWith('_id') && /^\d{1,20}$/.test(value));

/** A query's name or value as the client meant it; as sent when it is not well encoded. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A request's URL as the logs may show it: each free-text query value replaced by its length (`q=[7 chars]`). */
export function loggedUrl(url: string | undefined): string | undefined {
  const at = url?.indexOf('?') ?? -1;
  if (url === undefined || at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const name = pair.slice(0, equals);
      const value = decoded(pair.slice(equals + 1));
      return isStructural(decoded(name), value) ? pair : `${name}=[${[...value].length} chars]`;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

/** One line per answered request; headers are never logged, so neither are tokens, nor free-text query values. */
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
    { req: { id, method: req.method, url: loggedUrl(req.url) }, res: { statusCode }, responseTime },
    'request completed',
  );
}
