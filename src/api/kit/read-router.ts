import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ReadStore } from '../../projections/read-store';
import { ApiError, ERROR_STATUS, errorEnvelope } from './errors';
import { logCompleted, requestIdOf } from './logging';
import type { ModuleDefinition } from './module';
import { readItem, readList, type ReadAnswer } from './reads';

const PREFIX = '/api/v1/';

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Answers the request when it is one of the module's public reads; returns false to pass it on. */
export type ReadRouter = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The hot path: `GET /api/v1/<resource>` and `GET /api/v1/<resource>/{id}` served straight from
 * `node:http`, without express's per-request machinery (which costs several times the read itself).
 * Everything else (health, descriptions, writes, errors of unknown routes) goes on to express.
 */
export function createReadRouter(module: ModuleDefinition, readStore: ReadStore, logger: Logger): ReadRouter {
  const resources = new Map(module.resources.map((resource) => [resource.path.toLowerCase(), resource]));
  const internalError: ReadAnswer = {
    status: ERROR_STATUS.internal_error,
    body: Buffer.from(JSON.stringify(errorEnvelope(new ApiError('internal_error', 'Internal server error')))),
  };

  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    if (path.length <= PREFIX.length || path.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return false;
    const segments = path.slice(PREFIX.length).split('/');
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    const resource = resources.get((segments[0] as string).toLowerCase());
    if (!resource || segments.length > 2) return false;
    const rawId = segments.length === 2 ? decodeSegment(segments[1] as string) : undefined;

    const started = performance.now();
    const id = requestIdOf(req);
    const query = new URLSearchParams(queryStart === -1 ? '' : url.slice(queryStart + 1));
    const answer =
      rawId === undefined
        ? readList(module, resource, readStore, query)
        : readItem(module, resource, readStore, rawId);
    answer
      .catch((error: unknown) => {
        logger.error({ err: error, req: { id, method: req.method, url } }, 'request failed');
        return internalError;
      })
      .then(({ status, body }) => {
        res.writeHead(status, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': body.length,
          'X-Request-Id': id,
        });
        res.end(req.method === 'HEAD' ? undefined : body);
        logCompleted(logger, req, id, status, started);
      });
    return true;
  };
}
