import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

export function createLogger(level: string): Logger {
  return pino({ level, redact: ['req.headers.authorization', 'req.headers.cookie'] });
}

const CLIENT_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is a sane token, a UUID otherwise),
 * returns it as `X-Request-Id`, and logs the request with it.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
