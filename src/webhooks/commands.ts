import { randomInt } from 'node:crypto';
import type { CommandContext } from '../commands/context';
import { invalidField } from '../commands/errors';
import { moduleCommands } from '../commands/module-commands';
import { eventCatalog } from '../events/catalog';
import { webhookDecider, type AttemptOutcome } from './decider';
import { webhookEvents, webhookStream } from './events';
import { newWebhookSecret, sealSecret } from './secret';
import { targetUrlProblem, type Resolve } from './target-url';

const { run } = moduleCommands(eventCatalog(webhookEvents));

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export const newWebhookId = (): string =>
  `wh_${Array.from({ length: 16 }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('')}`;

export interface WebhookRequest {
  module: string;
  url: string;
  resource: string | null;
  description: string | null;
}

/** What registering a webhook checks its request against. */
export interface WebhookRules {
  /** The resources of the webhook's module. */
  resources: readonly string[];
  /** `SUITE_WEBHOOK_ALLOW_PRIVATE`: private and loopback targets are allowed (development, tests). */
  allowPrivate: boolean;
  /** Seals its secret. */
  serverSecret: string;
  resolve?: Resolve;
}

/**
 * Registers a webhook under a new id, to be sent the changes after the log's head; the answer holds its
 * secret, which the log keeps only sealed. Refused (422) for a resource the module does not have, or a
 * target the rules do not allow.
 */
export async function createWebhook(context: CommandContext, request: WebhookRequest, rules: WebhookRules) {
  if (request.resource !== null && !rules.resources.includes(request.resource)) {
    throw invalidField(
      'resource',
      `${request.module} has no resource ${request.resource}; it has ${rules.resources.join(', ')}`,
    );
  }
  const problem = await targetUrlProblem(request.url, rules);
  if (problem !== undefined) throw invalidField('url', problem);
  const id = newWebhookId();
  const secret = newWebhookSecret();
  const webhook = {
    id,
    ...request,
    secret_sealed: sealSecret(rules.serverSecret, id, secret),
    from_position: await context.eventStore.headPosition(),
  };
  const result = await run(context, webhookStream(id), webhookDecider, { type: 'CreateWebhook', webhook });
  return { id, secret, result };
}

export const deleteWebhook = (context: CommandContext, id: string) =>
  run(context, webhookStream(id), webhookDecider, { type: 'DeleteWebhook', id });

/** Sends again the changes after `after`, or (null) from the first not delivered; re-enables a disabled webhook. */
export const requestRedelivery = (context: CommandContext, id: string, after: string | null) =>
  run(context, webhookStream(id), webhookDecider, { type: 'RequestRedelivery', id, after });

/** Records an attempt made after the change at `from` was delivered (null: none yet); see `webhookDecider`. */
export const recordAttempt = (context: CommandContext, outcome: AttemptOutcome, from: string | null) =>
  run(context, webhookStream(outcome.id), webhookDecider, {
    type: 'RecordAttempt',
    outcome,
    at: context.clock.now(),
    from,
  });

export const disableWebhook = (context: CommandContext, id: string, reason: string) =>
  run(context, webhookStream(id), webhookDecider, { type: 'DisableWebhook', id, reason });
