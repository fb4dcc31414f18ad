import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { MAX_JSON_NESTING, jsonNestsDeeperThan } from '../../json-nesting';
import { entityTag, notModified, READ_CACHE_CONTROL } from './conditional';
import { ApiError, ERROR_STATUS, errorEnvelope, toApiError } from './errors';
import { loggedUrl } from './logging';

/** The kit's hot-path routers answer a request and return true, or return false to pass it on. */
export type Router = (req: IncomingMessage, res: ServerResponse) => boolean;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: Buffer,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendBody(res, status, 'application/json; charset=utf-8', body, headers);
}

/** Answers a text or bytes of another media type than JSON (a signed note as `text/plain; charset=utf-8`). */
export function sendText(
  res: ServerResponse,
  status: number,
  mediaType: string,
  text: string | Buffer,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendBody(res, status, mediaType, Buffer.isBuffer(text) ? text : Buffer.from(text), headers);
}

/**
 * Sends an answer. A 200 to a GET or HEAD is a read: it carries its body's entity tag (`ETag`) and
 * `Cache-Control: private, no-cache`, and is answered 304 without a body when the request's
 * `If-None-Match` names that tag. A read that says itself how it may be kept (`no-store`: a
 * credential's answer, the probes) is sent as it says, without a tag.
 */
function sendBody(
  res: ServerResponse,
  status: number,
  mediaType: string,
  body: Buffer,
  headers: Readonly<Record<string, string>>,
): void {
  const { req } = res;
  // A literal of a fixed shape, extended in a loop: a spread here made every read measurably slower.
  const head: Record<string, string | number> = { 'Content-Type': mediaType, 'Content-Length': body.length };
  if (
    status === 200 &&
    (req.method === 'GET' || req.method === 'HEAD') &&
    headers['Cache-Control'] === undefined
  ) {
    const tag = entityTag(body);
    if (notModified(req, tag)) {
      res.writeHead(304, { ...headers, ETag: tag, 'Cache-Control': READ_CACHE_CONTROL });
      res.end();
      return;
    }
    head.ETag = tag;
    head['Cache-Control'] = READ_CACHE_CONTROL;
  }
  for (const name in headers) head[name] = headers[name] as string;
  res.writeHead(status, head);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The 500 envelope, encoded once: what is sent when an error's own envelope cannot be. */
const INTERNAL_ERROR = Buffer.from(
  JSON.stringify(errorEnvelope(new ApiError('internal_error', 'Internal server error'))),
);

/** Answers with the error envelope of the error (500 without details for anything unexpected). */
export function sendError(
  res: ServerResponse,
  error: unknown,
  headers: Readonly<Record<string, string>> = {},
): ApiError {
  const apiError = toApiError(error);
  let body: Buffer;
  try {
    body = Buffer.from(JSON.stringify(errorEnvelope(apiError)));
  } catch {
    sendJson(res, 500, INTERNAL_ERROR, headers);
    return new ApiError('internal_error', 'Internal server error');
  }
  sendJson(res, ERROR_STATUS[apiError.code], body, { ...headers, ...apiError.headers });
  return apiError;
}

/** What is recorded of every answered request: its log line, its duration, the route on its span. */
export interface RequestObserver {
  logger: Logger;
  /** `route`: the template that answered (`/api/v1/requests/{item_id}`); undefined when none did. */
  completed(
    req: IncomingMessage,
    requestId: string,
    route: string | undefined,
    status: number,
    started: number,
  ): void;
}

/** What a failed request's answer and log line need to know about it. */
export interface FailedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  observer: RequestObserver;
  requestId: string;
  /** The route template the request matched, if it did. */
  route?: string;
  started: number;
}

/**
 * Answers a request that failed, and never throws: the error envelope (a 500 for anything unexpected,
 * logged with the request id), or, when the answer was already under way (a stream), its end. The
 * last resort of every route: whatever went wrong, the process keeps serving.
 */
export function answerFailure(failed: FailedRequest, error: unknown): void {
  const { req, res, observer, requestId, started } = failed;
  const { logger } = observer;
  const at = { id: requestId, method: req.method, url: loggedUrl(req.url) };
  try {
    if (res.headersSent) {
      logger.error({ err: error, req: at }, 'response failed');
      res.end();
      return;
    }
    const apiError = sendError(res, error, { 'X-Request-Id': requestId });
    if (apiError.code === 'internal_error') logger.error({ err: error, req: at }, 'request failed');
    observer.completed(req, requestId, failed.route, res.statusCode, started);
  } catch (failure) {
    logger.error({ err: failure, req: at }, 'answering a failed request failed');
    res.destroy();
  }
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a JSON request body of at most `limit` bytes: 413 when larger, 415 when it is not declared as
 * UTF-8 JSON, 400 when it is not valid UTF-8, does not parse or nests deeper than `MAX_JSON_NESTING`.
 * No body is `undefined` (the payload's validation names it).
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit)
    throw new ApiError('payload_too_large', `The request body exceeds ${limit} bytes`, { limit });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      throw new ApiError('payload_too_large', `The request body exceeds ${limit} bytes`, { limit });
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const [mediaType = '', ...parameters] = (req.headers['content-type'] ?? '').split(';');
  if (!JSON_MEDIA_TYPE.test(mediaType.trim())) {
    throw new ApiError('unsupported_media_type', 'Send the request body as application/json');
  }
  const charset = parameters
    .map((parameter) => parameter.trim().toLowerCase())
    .find((p) => p.startsWith('charset='));
  if (charset && !['charset=utf-8', 'charset=utf8', 'charset="utf-8"'].includes(charset)) {
    throw new ApiError('unsupported_media_type', 'Unsupported charset; send UTF-8 JSON');
  }
  if (req.headers['content-encoding'] && req.headers['content-encoding'] !== 'identity') {
    throw new ApiError('unsupported_media_type', 'Send the request body without a content encoding');
  }
  let text: string;
  try {
    text = UTF8.decode(Buffer.concat(chunks, size));
  } catch {
    throw new ApiError('malformed_json', 'The request body is not valid UTF-8');
  }
  if (jsonNestsDeeperThan(text)) {
    throw new ApiError(
      'nesting_too_deep',
      `The request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels`,
      { max_depth: MAX_JSON_NESTING },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('malformed_json', 'The request body is not valid JSON');
  }
}

/**
 * `/api/v1/requests/:item_id` -> a matcher giving `{ item_id }` for `/api/v1/requests/42` (or `/42/`),
 * decoded: a path that does not decode never gets here (`served` refuses it).
 */
export function pathMatcher(pattern: string): (path: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/([:*])(\w+)/g, (_match, kind: string, name: string) => {
      names.push(name);
      return kind === '*' ? '(.+)' : '([^/]+)';
    });
  const regex = new RegExp(`^${source}/?$`, 'i');
  return (path) => {
    const match = regex.exec(path);
    if (!match) return null;
    return Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(match[index + 1] as string)]),
    );
  };
}
