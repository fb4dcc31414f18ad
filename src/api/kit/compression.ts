import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';
import type { Request, Response } from 'express';

/** Answers smaller than this are sent as they are: encoding them saves less than it costs. */
const THRESHOLD_BYTES = 1024;

/** Server-sent events go out as they happen: an encoder would hold them until it has enough to write. */
function encodable(req: Request, res: Response): boolean {
  const type = res.getHeader('Content-Type');
  if (typeof type === 'string' && type.startsWith('text/event-stream')) return false;
  return compression.filter(req, res);
}

const encoding = compression({
  threshold: THRESHOLD_BYTES,
  filter: encodable,
  // Answers are encoded as they are sent: a modest quality keeps each one's CPU near gzip's.
  brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
});

/**
 * A port's handler with its answers compressed (brotli or gzip, as `Accept-Encoding` asks; `Vary:
 * Accept-Encoding`). HEAD answers keep their `Content-Length`, as `compression` leaves them alone.
 */
export function compressing(handler: RequestListener): RequestListener {
  // `compression` is written for express but only reads and patches what `node:http` has.
  const encode = encoding as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  return (req, res) => encode(req, res, () => handler(req, res));
}
