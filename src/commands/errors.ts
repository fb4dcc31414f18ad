/**
 * Errors the suite's rules end in: a command refused, a query naming nothing, a credential refused.
 * Each carries a stable code; the HTTP status (and headers) for each code is chosen in one place,
 * `api/kit/errors.ts`.
 */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'DomainError';
  }
}

export type DomainErrorCode =
  | 'validation_error'
  | 'not_found'
  | 'unknown_subject'
  | 'already_exists'
  | 'illegal_transition'
  | 'concurrency_conflict'
  | 'self_approval'
  | 'proposal_not_pending'
  | 'proposal_expired'
  | 'proposal_withdrawn'
  | 'not_the_approver'
  | 'subject_erased'
  | 'cursor_expired'
  | 'unauthorized'
  | 'invalid_token'
  | 'identity_provider_unavailable';

/** A payload that is well-formed but refers to something that does not exist or cannot be used. */
export function invalidField(field: string, message: string): DomainError {
  return new DomainError('validation_error', `${field}: ${message}`, {
    issues: [{ loc: ['body', field], msg: message, type: 'value_error' }],
  });
}

export function illegalTransition(entity: string, from: string, action: string): DomainError {
  return new DomainError('illegal_transition', `Cannot ${action} a ${entity} that is ${from}`, {
    from,
    action,
  });
}
