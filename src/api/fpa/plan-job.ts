import { z } from 'zod';
import { generatePlanFor } from '../../commands/fpa/handlers';
import type { StoredEvent } from '../../events/envelope';
import type { FpaEventOf } from '../../events/fpa';
import type { ModuleJob } from '../../modules/module';

const PlanJobPayload = z.object({ scenario: z.string() });
type PlanJobPayload = z.infer<typeof PlanJobPayload>;

/**
 * Computes a scenario's plan after each definition. The decision recomputes the plan from the
 * stream it reads and appends PlanGenerated only when the output differs from the last generation's,
 * so a rerun, a retry or a second worker appends nothing.
 */
export const planJob: ModuleJob<PlanJobPayload> = {
  name: 'fpa.plan',
  payload: PlanJobPayload,
  trigger: {
    on: ['ScenarioDefined'],
    payload: (event: StoredEvent) => ({
      scenario: (event as StoredEvent & FpaEventOf<'ScenarioDefined'>).data.id,
    }),
  },
  async run({ scenario }, _services, context) {
    await generatePlanFor(context, scenario);
  },
};
