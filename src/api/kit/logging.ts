import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({ level });
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

/** Gives every express request its id (`res.locals.requestId`, header `X-Request-Id`) and logs it. */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const id = requestIdOf(req);
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    res.once('finish', () => logCompleted(logger, req, id, res.statusCode, started));
    next();
  };
}
