import { isoTimestamp } from '../clock';
import type { Decider } from '../commands/decider';
import { DomainError } from '../commands/errors';
import type { WebhookEvent, WebhookEventOf } from './events';

/** The first retry's delay; it doubles after each failure of the same change, up to an hour. */
export const FIRST_RETRY_MS = 5_000;
export const LONGEST_RETRY_MS = 3_600_000;
/** A change not delivered this long after its first failure disables the webhook. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;

export type WebhookStatus = 'active' | 'disabled';

export interface WebhookState {
  status: WebhookStatus;
  module: string;
  url: string;
  resource: string | null;
  secret_sealed: string;
  from_position: number;
  /** The cursor of the last change delivered (or where a redelivery starts); null: none yet. */
  cursor: string | null;
  /** The change being retried: its message id, attempts so far and first failure. */
  failing: { message_id: string; attempts: number; since: string } | null;
  next_attempt_at: string | null;
}

/** The outcome of sending one change, for `RecordAttempt`. */
export type AttemptOutcome = Omit<
  WebhookEventOf<'WebhookDeliveryAttempted'>['data'],
  'attempt' | 'at' | 'next_attempt_at'
>;

export type WebhookCommand =
  | { type: 'CreateWebhook'; webhook: WebhookEventOf<'WebhookCreated'>['data'] }
  /** `from`: the cursor delivery stood at when the change was read (the job's view of the webhook). */
  | { type: 'RecordAttempt'; outcome: AttemptOutcome; at: Date; from: string | null }
  | { type: 'DisableWebhook'; id: string; reason: string }
  | { type: 'RequestRedelivery'; id: string; after: string | null }
  | { type: 'DeleteWebhook'; id: string };

/** A deleted webhook's stream folds back to nothing: it is as if it never was. */
type State = WebhookState | null;

export const retryDelayMs = (attempts: number): number =>
  Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), LONGEST_RETRY_MS);

function attempted(outcome: AttemptOutcome, at: Date, state: WebhookState): WebhookEvent[] {
  const same = state.failing?.message_id === outcome.message_id ? state.failing : null;
  const attempt = (same?.attempts ?? 0) + 1;
  const record = (next_attempt_at: string | null): WebhookEvent => ({
    type: 'WebhookDeliveryAttempted',
    data: { ...outcome, attempt, at: isoTimestamp(at), next_attempt_at },
  });
  if (outcome.delivered) return [record(null)];
  const since = same ? Date.parse(same.since) : at.getTime();
  if (at.getTime() - since >= GIVE_UP_AFTER_MS) {
    const reason =
      `change ${outcome.cursor} not delivered after ${attempt} attempts since ${isoTimestamp(new Date(since))}: ` +
      (outcome.error ?? `HTTP ${outcome.status_code}`);
    return [record(null), { type: 'WebhookDisabled', data: { id: outcome.id, reason } }];
  }
  return [record(isoTimestamp(new Date(at.getTime() + retryDelayMs(attempt))))];
}

/**
 * A webhook is created once; its attempts are recorded while it is active and delivery stands where
 * the sender read from, and the one that ends 24 hours of failing to deliver a change disables it. A redelivery makes it active again, from a cursor
 * or from the change it stopped at. Deleting ends it; a deleted webhook refuses everything.
 */
export const webhookDecider: Decider<WebhookCommand, State, WebhookEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'WebhookCreated') {
      const { module, url, resource, secret_sealed, from_position } = event.data;
      return {
        status: 'active',
        module,
        url,
        resource,
        secret_sealed,
        from_position,
        cursor: null,
        failing: null,
        next_attempt_at: null,
      };
    }
    if (!state) return state;
    switch (event.type) {
      case 'WebhookDeliveryAttempted': {
        const { delivered, cursor, message_id, attempt, at, next_attempt_at } = event.data;
        if (delivered) return { ...state, cursor, failing: null, next_attempt_at: null };
        const since = state.failing?.message_id === message_id ? state.failing.since : at;
        return { ...state, failing: { message_id, attempts: attempt, since }, next_attempt_at };
      }
      case 'WebhookDisabled':
        return { ...state, status: 'disabled', next_attempt_at: null };
      case 'WebhookRedeliveryRequested':
        return {
          ...state,
          status: 'active',
          cursor: event.data.after ?? state.cursor,
          failing: null,
          next_attempt_at: null,
        };
      case 'WebhookDeleted':
        return null;
    }
  },
  decide(command, state) {
    if (command.type === 'CreateWebhook') {
      if (state) throw new DomainError('already_exists', `Webhook ${command.webhook.id} exists`);
      return [{ type: 'WebhookCreated', data: command.webhook }];
    }
    if (command.type === 'RecordAttempt') {
      // Deleted, disabled or sent back to another cursor while the change was being sent: the job
      // that sent it stops, and the attempt is not recorded.
      const current = state?.status === 'active' && state.cursor === command.from;
      return current ? attempted(command.outcome, command.at, state) : [];
    }
    const { id } = command;
    if (!state) throw new DomainError('not_found', `No webhook ${id}`);
    switch (command.type) {
      case 'DisableWebhook':
        return state.status === 'active'
          ? [{ type: 'WebhookDisabled', data: { id, reason: command.reason } }]
          : [];
      case 'RequestRedelivery':
        return [{ type: 'WebhookRedeliveryRequested', data: { id, after: command.after } }];
      case 'DeleteWebhook':
        return [{ type: 'WebhookDeleted', data: { id } }];
    }
  },
};
