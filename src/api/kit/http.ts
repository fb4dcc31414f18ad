import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, ERROR_STATUS, errorEnvelope, toApiError } from './errors';

/** The kit's hot-path routers answer a request and return true, or return false to pass it on. */
export type Router = (req: IncomingMessage, res: ServerResponse) => boolean;

export function sendJson(
  res: ServerResponse,
  status: number,
  body: Buffer,
  headers: Readonly<Record<string, string>> = {},
): void {
  // A literal of a fixed shape, extended in a loop: a spread here made every read measurably slower.
  const head: Record<string, string | number> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
  };
  for (const name in headers) head[name] = headers[name] as string;
  res.writeHead(status, head);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** Answers with the error envelope of the error (500 without details for anything unexpected). */
export function sendError(
  res: ServerResponse,
  error: unknown,
  headers: Readonly<Record<string, string>> = {},
): ApiError {
  const apiError = toApiError(error);
  sendJson(res, ERROR_STATUS[apiError.code], Buffer.from(JSON.stringify(errorEnvelope(apiError))), {
    ...headers,
    ...apiError.headers,
  });
  return apiError;
}

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * Reads a JSON request body of at most `limit` bytes: 413 when larger, 415 when it is not JSON or not
 * UTF-8, 400 when it does not parse. No body is `undefined` (the payload's validation names it).
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
  try {
    return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
  } catch {
    throw new ApiError('malformed_json', 'The request body is not valid JSON');
  }
}

/** `/api/v1/requests/:item_id` -> a matcher giving `{ item_id }` for `/api/v1/requests/42` (or `/42/`). */
export function pathMatcher(pattern: string): (path: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_match, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const regex = new RegExp(`^${source}/?$`, 'i');
  return (path) => {
    const match = regex.exec(path);
    if (!match) return null;
    return Object.fromEntries(names.map((name, index) => [name, decodeSegment(match[index + 1] as string)]));
  };
}

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
