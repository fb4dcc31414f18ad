import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { EventStore } from '../events/event-store';
import { scanAll } from '../projections/read-all';
import type { ReadStore } from '../projections/read-store';
import type { JobQueue } from '../workers/job-queue';
import { periodic } from '../workers/periodic';
import { DELIVER_JOB } from './delivery';
import { WEBHOOKS_COLLECTION, type WebhookRecord } from './projection';

/** How often the active webhooks are looked at besides after each append: a retry falls due by time. */
export const DISPATCH_EVERY_MS = 1_000;

export interface WebhookDispatch {
  /** Queues the due webhooks' jobs now, then after every append and every `DISPATCH_EVERY_MS`. */
  start(): Promise<void>;
  /** Queues the due webhooks' jobs once (or once more after the pass under way). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

export interface DispatchServices {
  eventStore: EventStore;
  readStore: ReadStore;
  jobs: JobQueue;
  clock: Clock;
  logger: Logger;
}

/**
 * Queues a delivery job for each active webhook whose retry is not pending, in the process that runs
 * jobs: any worker then runs it (BullMQ in the distributed profile). A webhook's job is queued once
 * while it is waiting or running, so one webhook's changes are sent by one job at a time.
 */
export function webhookDispatch(services: DispatchServices): WebhookDispatch {
  const { eventStore, readStore, jobs, clock, logger } = services;
  const active = { field: 'status', op: 'eq', value: 'active' } as const;
  const pass = periodic(
    async () => {
      const now = clock.now().getTime();
      for await (const { doc } of scanAll(readStore, WEBHOOKS_COLLECTION, { filters: [active] })) {
        const webhook = JSON.parse(doc) as WebhookRecord;
        if (webhook.next_attempt_at !== null && Date.parse(webhook.next_attempt_at) > now) continue;
        await jobs.enqueue(DELIVER_JOB, { webhook: webhook.id }, { jobId: `${DELIVER_JOB}.${webhook.id}` });
      }
    },
    {
      everyMs: DISPATCH_EVERY_MS,
      onError: (error) => logger.error({ err: error }, 'webhook dispatch failed'),
    },
  );
  let unsubscribe: (() => void) | undefined;
  return {
    async start() {
      await pass.start();
      unsubscribe ??= eventStore.onAppended(() => void pass.runOnce());
    },
    runOnce: pass.runOnce,
    async stop() {
      unsubscribe?.();
      await pass.stop();
    },
  };
}
