import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError, type DomainErrorCode } from '../../commands/errors';
import { WrongExpectedRevisionError } from '../../events/event-store';

/** Stable error codes of the error envelope, with their HTTP status: the one place that maps them. */
export const ERROR_STATUS = {
  malformed_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  already_exists: 409,
  illegal_transition: 409,
  concurrency_conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  idempotency_key_reused: 422,
  internal_error: 500,
  writes_disabled: 503,
  audit_disabled: 503,
} as const satisfies Record<DomainErrorCode | string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/** An error answered with the error envelope and the status of its code. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Response headers that belong to the error, such as `WWW-Authenticate` on a 401. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorEnvelope(error: ApiError): ErrorEnvelope {
  const body: ErrorEnvelope = { error: { code: error.code, message: error.message } };
  if (error.details) body.error.details = error.details;
  return body;
}

export function sendError(res: Response, error: ApiError): void {
  if (error.headers) res.set(error.headers);
  res.status(ERROR_STATUS[error.code]).json(errorEnvelope(error));
}

/** Failures raised by the JSON body parser, by their `type`. */
const PARSER_ERRORS: Record<string, (error: { limit?: number }) => ApiError> = {
  'entity.parse.failed': () => new ApiError('malformed_json', 'The request body is not valid JSON'),
  'entity.too.large': (error) =>
    new ApiError('payload_too_large', `The request body exceeds ${error.limit} bytes`, {
      limit: error.limit,
    }),
  'encoding.unsupported': () => new ApiError('unsupported_media_type', 'Unsupported content encoding'),
  'charset.unsupported': () => new ApiError('unsupported_media_type', 'Unsupported charset; send UTF-8 JSON'),
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return new ApiError(error.code, error.message, error.details);
  if (error instanceof WrongExpectedRevisionError) {
    return new ApiError('concurrency_conflict', 'The record was changed by another write; try again');
  }
  const parserType = (error as { type?: unknown } | null)?.type;
  if (typeof parserType === 'string' && PARSER_ERRORS[parserType]) {
    return PARSER_ERRORS[parserType](error as { limit?: number });
  }
  return new ApiError('internal_error', 'Internal server error');
}

export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (error, req, res, _next) => {
    const apiError = toApiError(error);
    if (apiError.code === 'internal_error') {
      logger.error(
        { err: error, req: { id: res.locals.requestId, method: req.method, url: req.url } },
        'request failed',
      );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    sendError(res, apiError);
  };
