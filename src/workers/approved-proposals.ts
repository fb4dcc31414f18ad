import { PROPOSALS_COLLECTION, type ProposalRecord } from '../approvals';
import { finishApproved } from '../api/kit/proposal-apply';
import type { ModuleDefinition, ModuleSettings, RouteServices } from '../api/kit/module';
import { coalescing } from '../coalescing';
import { scanAll } from '../projections/read-all';
import { workerContext } from './worker-context';

/** How often the follower looks for approved proposals nobody finished. */
export const FOLLOW_INTERVAL_MS = 5_000;
/**
 * How long an approval is left to the request that took it, which applies it within seconds (its
 * retries included): after that, nobody is applying it, and the follower does.
 */
export const APPROVAL_GRACE_MS = 15_000;

const NAME = 'proposal-follower';

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
export function approvedProposals(
  services: RouteServices,
  modules: readonly ModuleDefinition[],
  /** Asked once there is a proposal to finish (the server secret is resolved then). */
  settingsOf: () => ModuleSettings,
): ApprovedProposals {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const finish = coalescing(async () => {
    const now = services.clock.now();
    const filters = [{ field: 'status', op: 'eq', value: 'approved' } as const];
    const due: ProposalRecord[] = [];
    for await (const { doc } of scanAll(services.readStore, PROPOSALS_COLLECTION, { filters })) {
      const record = JSON.parse(doc) as ProposalRecord;
      const approvedAt = record.approved_at === null ? 0 : Date.parse(record.approved_at);
      if (approvedAt + APPROVAL_GRACE_MS <= now.getTime()) due.push(record);
    }
    const settings = due.length > 0 ? settingsOf() : undefined;
    for (const record of due) {
      const module = modules.find((candidate) => candidate.id === record.module);
      if (!module) continue;
      const context = workerContext(services, NAME, now);
      try {
        await finishApproved(
          module,
          record,
          services,
          settings as ModuleSettings,
          context,
          context.metadata().request_id,
        );
      } catch (error) {
        services.logger.error({ err: error, proposal: record.id }, `${NAME} failed`);
      }
    }
  });
  const finishLogged = () =>
    finish().catch((error: unknown) => services.logger.error({ err: error }, `${NAME} failed`));
  return {
    async start() {
      await finishLogged();
      if (stopped || timer) return;
      timer = setInterval(() => void finishLogged(), FOLLOW_INTERVAL_MS);
      timer.unref();
    },
    finishDue: finishLogged,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await finish.settled();
    },
  };
}
