import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

export function createLogger(level: string): Logger {
  return pino({ level, redact: ['req.headers.authorization', 'req.headers.cookie'] });
}

const CLIENT_TOKEN = /^[\w.:-]{1,128}$/;

/** A caller-supplied id (`X-Request-Id`, `X-Correlation-Id`) when it is a sane token; else undefined. */
export function clientToken(value: unknown): string | undefined {
  return typeof value === 'string' && CLIENT_TOKEN.test(value) ? value : undefined;
}

/**
 * Gives every request an id (the caller's `X-Request-Id` when it is a sane token, a UUID otherwise),
 * returns it as `X-Request-Id`, and logs the request with it.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const id = clientToken(req.headers['x-request-id']) ?? randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
