import type { RequestListener } from 'node:http';

const ALLOWED_METHODS = 'GET, HEAD, POST, PATCH, DELETE';
/** The answers' headers the console reads. */
const EXPOSED_HEADERS = 'X-Event-Position, X-Request-Id, Location, Retry-After';
/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

/**
 * Lets pages of the given origins (the console's) call a port from the browser: their requests are
 * answered with `Access-Control-Allow-Origin` naming them, and their preflights with what they may
 * send (any request header: a module declares its own, such as a workspace's). Any other origin gets no CORS header, so a browser keeps its page from reading the answers.
 * Credentials are bearer tokens the page sends itself; cookies are never allowed cross-origin.
 */
export function allowingOrigins(origins: readonly string[], handler: RequestListener): RequestListener {
  const allowed = new Set(origins);
  return (req, res) => {
    const origin = req.headers.origin;
    res.setHeader('Vary', 'Origin');
    if (origin === undefined || !allowed.has(origin)) return handler(req, res);
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '',
        'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
      });
      res.end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    handler(req, res);
  };
}
