import { isoTimestamp } from '../../clock';
import type { RequestPriority } from '../../events/esm';

const MINUTE = 60_000;

/** Time to first response by priority, in minutes (Frappe Helpdesk's default targets). */
const RESPONSE_MINUTES: Record<RequestPriority, number> = { Urgent: 30, High: 60, Medium: 480, Low: 1440 };

/**
 * The service's `sla_hours` is its resolution target at Medium priority; the other priorities scale it
 * in the proportions of Frappe Helpdesk's defaults (Low 72h, Medium 24h, High 4h, Urgent 2h).
 */
const RESOLUTION_FACTOR: Record<RequestPriority, number> = { Low: 3, Medium: 1, High: 1 / 6, Urgent: 1 / 12 };

/** Resolution target at Medium priority for a request that names no service. */
export const DEFAULT_SLA_HOURS = 24;

export interface SlaTargets {
  response_by: string;
  resolution_by: string;
}

/**
 * Due times run on the calendar clock (24x7 service desk), rounded up to the whole minute. The response
 * is never due after the resolution.
 */
export function slaTargets(created: Date, slaHours: number, priority: RequestPriority): SlaTargets {
  const resolutionMinutes = Math.ceil(slaHours * 60 * RESOLUTION_FACTOR[priority]);
  const responseMinutes = Math.min(RESPONSE_MINUTES[priority], resolutionMinutes);
  return {
    response_by: isoTimestamp(new Date(created.getTime() + responseMinutes * MINUTE)),
    resolution_by: isoTimestamp(new Date(created.getTime() + resolutionMinutes * MINUTE)),
  };
}
