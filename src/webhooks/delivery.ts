import type { Logger } from 'pino';
import { EVERY_SCOPE, type ChangeFeed, type Change } from '../changes/change';
import type { Clock } from '../clock';
import { fold } from '../commands/decider';
import type { IdAllocator } from '../commands/ids';
import type { EventStore } from '../events/event-store';
import { workerContext } from '../workers/worker-context';
import { disableWebhook, recordAttempt } from './commands';
import { webhookDecider, type AttemptOutcome, type WebhookState } from './decider';
import { webhookStream, type WebhookEvent } from './events';
import { openSecret } from './secret';
import { messageId, payloadOf, signedHeaders } from './signing';
import { targetUrlProblem, type Resolve } from './target-url';

/** The job that sends a webhook the changes it has not been sent yet (`{ webhook: <id> }`). */
export const DELIVER_JOB = 'webhooks.deliver';
/** The queue deliveries run in (BullMQ's name), apart from the modules' jobs. */
export const WEBHOOK_QUEUE = 'suite-webhooks';
/** How long a receiver has to answer one attempt. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
const FEED_PAGE = 100;
/**
 * How long one job goes on sending (a slow receiver's changes), so that the other webhooks' jobs get
 * their turn: the embedded profile runs the webhooks' queue one job at a time. The next job goes on
 * from there.
 */
const JOB_TURN_MS = 30_000;

export interface DeliveryServices {
  eventStore: EventStore;
  ids: IdAllocator;
  clock: Clock;
  logger: Logger;
  /** Each module's change feed, by module id. */
  feeds: ReadonlyMap<string, ChangeFeed>;
  /** Opens the webhooks' secrets. */
  serverSecret: string;
  /** `SUITE_WEBHOOK_ALLOW_PRIVATE`: checked again at each attempt, as the DNS may answer otherwise by then. */
  allowPrivate: boolean;
  resolve?: Resolve;
  timeoutMs?: number;
}

export interface Deliverer {
  /** Sends the webhook its changes due now, in feed order, one at a time, until one fails. */
  deliver(webhookId: string): Promise<void>;
}

const isCursorExpired = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'cursor_expired';

/** Posts one signed body; any answer but a 2xx, or none within the timeout, is a failed attempt. */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  services: DeliveryServices,
): Promise<Pick<AttemptOutcome, 'status_code' | 'error' | 'latency_ms' | 'delivered'>> {
  const refused = await targetUrlProblem(url, services);
  if (refused !== undefined)
    return { status_code: null, error: `url ${refused}`, latency_ms: 0, delivered: false };
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      // A redirect could lead anywhere, a private address included: it is a failure like any non-2xx.
      redirect: 'manual',
      signal: AbortSignal.timeout(services.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
    });
    await response.body?.cancel();
    const delivered = response.status >= 200 && response.status < 300;
    return { status_code: response.status, error: null, latency_ms: latency(), delivered };
  } catch (error) {
    const reason =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    return { status_code: null, error: reason, latency_ms: latency(), delivered: false };
  }
}

/**
 * Delivers webhooks at least once and in order: a webhook's changes are sent one at a time in the
 * order its module's feed gives them, and the next is sent only once the one before was delivered
 * (recorded with its cursor in the webhook's stream, so delivery goes on from there after a restart).
 * A failure is retried when its `next_attempt_at` has come (see `webhookDecider`).
 */
export function webhookDeliverer(services: DeliveryServices): Deliverer {
  const context = () => workerContext(services, 'webhooks', services.clock.now());

  /** Sends one change; whether it was delivered and recorded, so that the next may follow. */
  async function send(
    id: string,
    state: WebhookState,
    secret: string,
    change: Change,
    from: string | null,
  ): Promise<boolean> {
    const message_id = messageId(id, change);
    const body = JSON.stringify(payloadOf(state.module, change));
    const headers = signedHeaders(secret, message_id, services.clock.now(), body);
    const outcome = await post(state.url, headers, body, services);
    const { cursor, position } = change;
    const recorded = await recordAttempt(context(), { id, message_id, cursor, position, ...outcome }, from);
    return outcome.delivered && recorded.outcome.events.length > 0;
  }

  async function deliver(id: string): Promise<void> {
    const history = (await services.eventStore.readStream(webhookStream(id))) as WebhookEvent[];
    const state = fold(webhookDecider, history);
    if (!state || state.status !== 'active') return;
    if (state.next_attempt_at !== null && Date.parse(state.next_attempt_at) > services.clock.now().getTime())
      return;
    const feed = services.feeds.get(state.module);
    if (!feed) throw new Error(`No change feed for module ${state.module}`);
    const secret = openSecret(services.serverSecret, id, state.secret_sealed);
    // A webhook is sent the changes after the log's head when it was created.
    let after = state.cursor ?? (await feed.cursorAfter(state.from_position));
    let delivered = state.cursor;
    const started = performance.now();
    while (performance.now() - started < JOB_TURN_MS) {
      let page;
      try {
        page = await feed.read(after, FEED_PAGE, EVERY_SCOPE, state.resource ?? undefined);
      } catch (error) {
        if (!isCursorExpired(error)) throw error;
        await disableWebhook(context(), id, `the change feed does not know the cursor ${after}`);
        return;
      }
      for (const change of page.data) {
        if (!(await send(id, state, secret, change, delivered))) return;
        delivered = change.cursor;
      }
      if (!page.meta.has_more) return;
      after = page.meta.next;
    }
  }

  return { deliver };
}
