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

/**
 * A status move the record's transition table does not have: names the statuses that may follow, in
 * the message and as `allowed`, so the caller can offer them.
 */
export function illegalMove(
  record: string,
  from: string,
  to: string,
  allowed: readonly string[],
): DomainError {
  const valid = allowed.length > 0 ? `valid next statuses: ${allowed.join(', ')}` : 'no status follows it';
  return new DomainError('illegal_transition', `${record} cannot move from ${from} to ${to} (${valid})`, {
    from,
    to,
    allowed: [...allowed],
  });
}

export function illegalTransition(entity: string, from: string, action: string): DomainError {
  return new DomainError('illegal_transition', `Cannot ${action} a ${entity} that is ${from}`, {
    from,
    action,
  });
}
