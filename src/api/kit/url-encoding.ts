import { ApiError } from './errors';
import { sendError, type Router, type RequestObserver } from './http';
import { requestIdOf } from './logging';

const MALFORMED_URL = new ApiError('malformed_url', 'The request URL is not valid percent-encoded UTF-8');

/** Whether every `%` of a request target starts an escape, and the escapes spell UTF-8. */
export function wellEncoded(url: string): boolean {
  if (!url.includes('%')) return true;
  try {
    decodeURI(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a URL whose path or query is not valid percent-encoded UTF-8 (`%zz`, `%E2%8`, `%FF`), on
 * whatever path: 400 `malformed_url`. Nothing after it decodes such a URL, so no route reads a
 * parameter as other than what was sent.
 */
export function malformedUrlRouter(observer: RequestObserver): Router {
  return (req, res) => {
    if (wellEncoded(req.url ?? '/')) return false;
    const started = performance.now();
    const requestId = requestIdOf(req);
    sendError(res, MALFORMED_URL, { 'X-Request-Id': requestId });
    observer.completed(req, requestId, undefined, res.statusCode, started);
    return true;
  };
}
