import { PROPOSALS_COLLECTION, type ProposalRecord } from '../approvals';
import type { CommandContext } from '../commands/context';
import type { ModuleServices } from '../modules/module';
import { scanAll } from '../projections/read-all';
import { periodic } from './periodic';
import { workerContext } from './worker-context';

/** How often the follower looks for approved proposals nobody finished. */
export const FOLLOW_INTERVAL_MS = 5_000;
/**
 * How long an approval is left to the request that took it, which applies it within seconds (its
 * retries included): after that, nobody is applying it, and the follower does.
 */
export const APPROVAL_GRACE_MS = 15_000;

const NAME = 'proposal-follower';

/**
 * Applies an approved proposal's write and records its outcome, as the request that approved it would
 * (the HTTP API's, given by the composition root).
 */
export type FinishApproved = (
  record: ProposalRecord,
  services: ModuleServices,
  context: CommandContext,
) => Promise<unknown>;

export interface ApprovedProposals {
  /** Finishes those due once, then every `FOLLOW_INTERVAL_MS` until stopped. */
  start(): Promise<void>;
  /** Finishes the approved proposals left past their grace, once. */
  finishDue(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Finishes approved proposals that nobody finished: the process that approved one crashed (or
 * stopped) between the approval and the write. Each is applied under its idempotency key, so a write
 * that did run before the crash is not run again, and its outcome recorded: no proposal stays
 * `approved`. Several workers may follow at once: the first outcome recorded stands.
 */
export function approvedProposals(services: ModuleServices, finish: FinishApproved): ApprovedProposals {
  const following = periodic(
    async () => {
      const now = services.clock.now();
      const filters = [{ field: 'status', op: 'eq', value: 'approved' } as const];
      const due: ProposalRecord[] = [];
      for await (const { doc } of scanAll(services.readStore, PROPOSALS_COLLECTION, { filters })) {
        const record = JSON.parse(doc) as ProposalRecord;
        const approvedAt = record.approved_at === null ? 0 : Date.parse(record.approved_at);
        if (approvedAt + APPROVAL_GRACE_MS <= now.getTime()) due.push(record);
      }
      for (const record of due) {
        try {
          await finish(record, services, workerContext(services, NAME, now));
        } catch (error) {
          services.logger.error({ err: error, proposal: record.id }, `${NAME} failed`);
        }
      }
    },
    {
      everyMs: FOLLOW_INTERVAL_MS,
      onError: (error) => services.logger.error({ err: error }, `${NAME} failed`),
    },
  );
  return { start: following.start, finishDue: following.runOnce, stop: following.stop };
}
