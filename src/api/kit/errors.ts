import { DomainError, type DomainErrorCode } from '../../commands/errors';
import { AppendTooLargeError, MAX_APPEND_BYTES } from '../../events/append-size';
import {
  IdempotencyKeyInUseError,
  UnknownPositionError,
  WrongExpectedRevisionError,
} from '../../events/event-store';
import type { z } from 'zod';
import { firstDetails, summarise, zodDetails, type Location, type ValidationDetail } from './validation';

/** Stable error codes of the error envelope, with their HTTP status: the one place that maps them. */
export const ERROR_STATUS = {
  malformed_json: 400,
  malformed_url: 400,
  nesting_too_deep: 400,
  missing_header: 400,
  unknown_parameter: 400,
  repeated_parameter: 400,
  unauthorized: 401,
  invalid_token: 401,
  forbidden: 403,
  self_approval: 403,
  not_the_approver: 403,
  not_found: 404,
  unknown_subject: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  already_exists: 409,
  illegal_transition: 409,
  concurrency_conflict: 409,
  idempotency_key_in_use: 409,
  proposal_not_pending: 409,
  proposal_expired: 409,
  proposal_failed: 409,
  proposal_withdrawn: 409,
  subject_erased: 409,
  cursor_expired: 410,
  payload_too_large: 413,
  append_too_large: 413,
  unsupported_media_type: 415,
  misdirected_request: 421,
  validation_error: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  writes_disabled: 503,
  audit_disabled: 503,
  api_disabled: 503,
  not_caught_up: 503,
  identity_provider_unavailable: 503,
} as const satisfies Record<DomainErrorCode | string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Response headers that come with a domain error: a refused credential's challenge, when to try again. */
const DOMAIN_ERROR_HEADERS: Partial<Record<DomainErrorCode, Readonly<Record<string, string>>>> = {
  unauthorized: { 'WWW-Authenticate': 'Bearer' },
  invalid_token: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
  identity_provider_unavailable: { 'Retry-After': '5' },
};

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
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ApiError';
  }
}

/** The longest message answered: a message naming many problems is cut there. */
const MAX_MESSAGE_LENGTH = 2_000;

/** The envelope of an error, bounded: a long message is cut, and only the first issues are listed. */
export function errorEnvelope(error: ApiError): ErrorEnvelope {
  const { message, details } = error;
  const body: ErrorEnvelope = {
    error: {
      code: error.code,
      message: message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message,
    },
  };
  if (details) {
    const { issues } = details;
    body.error.details = Array.isArray(issues) ? { ...details, issues: firstDetails(issues) } : details;
  }
  return body;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) {
    return new ApiError(error.code, error.message, error.details, DOMAIN_ERROR_HEADERS[error.code], {
      cause: error,
    });
  }
  if (error instanceof WrongExpectedRevisionError) {
    return new ApiError('concurrency_conflict', 'The record was changed by another write; try again');
  }
  if (error instanceof IdempotencyKeyInUseError) {
    return new ApiError(
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still being processed; retry shortly',
      undefined,
      { 'Retry-After': '1' },
    );
  }
  if (error instanceof AppendTooLargeError) {
    return new ApiError(
      'append_too_large',
      `The write would store ${error.bytes} bytes of events in one stream; the limit is ${MAX_APPEND_BYTES}`,
      { bytes: error.bytes, limit: MAX_APPEND_BYTES },
    );
  }
  if (error instanceof UnknownPositionError) {
    return new ApiError('validation_error', `after: no event is at position ${error.position}`, {
      issues: [
        {
          loc: ['query', 'after'],
          msg: 'Must be 0 or the position of an event (from an event, X-Event-Position or next_after)',
          type: 'value_error',
          input: error.position,
        },
      ],
    });
  }
  return new ApiError('internal_error', 'Internal server error');
}

/** 422 `validation_error` naming each problem, summed up in its message. */
export function validationError(issues: ValidationDetail[]): ApiError {
  return new ApiError('validation_error', summarise(issues), { issues });
}

/** The value as the schema takes it; else 422 naming each problem at `location`. */
export function validated<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  location: Location,
): z.infer<Schema> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw validationError(zodDetails(parsed.error, location));
}
