import { isoTimestamp } from '../clock';
import type { EsmEvent, RequestPriority } from '../events/esm';
import { addBusinessMinutes, businessMinutesBetween } from './business-hours';

/** Time to first response by priority, in business minutes (Frappe Helpdesk's default targets). */
const RESPONSE_MINUTES: Record<RequestPriority, number> = { Urgent: 30, High: 60, Medium: 480, Low: 1440 };

/**
 * The service's `sla_hours` is its resolution target at Medium priority, in business hours; the other
 * priorities scale it in the proportions of Frappe Helpdesk's defaults (Low 72h, Medium 24h, High 4h,
 * Urgent 2h).
 */
const RESOLUTION_FACTOR: Record<RequestPriority, number> = { Low: 3, Medium: 1, High: 1 / 6, Urgent: 1 / 12 };

/** Resolution target at Medium priority for a request that names no service. */
export const DEFAULT_SLA_HOURS = 24;

/** A target is at risk once this share of its window has passed unmet. */
const AT_RISK_SHARE = 0.75;

export interface SlaTargets {
  response_by: string;
  resolution_by: string;
}

/**
 * Due times count business hours (`business-hours.ts`) from the request's creation, rounded up to the
 * whole minute. The response is never due after the resolution.
 */
export function slaTargets(created: Date, slaHours: number, priority: RequestPriority): SlaTargets {
  const resolutionMinutes = Math.ceil(slaHours * 60 * RESOLUTION_FACTOR[priority]);
  const responseMinutes = Math.min(RESPONSE_MINUTES[priority], resolutionMinutes);
  return {
    response_by: isoTimestamp(addBusinessMinutes(created, responseMinutes)),
    resolution_by: isoTimestamp(addBusinessMinutes(created, resolutionMinutes)),
  };
}

/** The moment a target due at `due` becomes at risk: when the last quarter of its business window begins. */
export function atRiskFrom(created: string, due: string): string {
  const start = new Date(created);
  const window = businessMinutesBetween(start, new Date(due));
  return isoTimestamp(addBusinessMinutes(start, Math.floor(window * AT_RISK_SHARE)));
}

export const SLA_TARGETS = ['response', 'resolution'] as const;
export type SlaTarget = (typeof SLA_TARGETS)[number];
export const SLA_STATES = ['on_track', 'at_risk', 'breached'] as const;
export type SlaState = (typeof SLA_STATES)[number];
/** Where one target stands: watched (on track or at risk), breached, or met (or no longer due). */
export type TargetState = SlaState | 'met';
export type TargetStates = Record<SlaTarget, TargetState>;

export const ON_TRACK: TargetStates = { response: 'on_track', resolution: 'on_track' };

/** A request's SLA state: breached if a target was, else at risk if a watched one is, else on track. */
export function slaState(targets: TargetStates): SlaState {
  const states = Object.values(targets);
  if (states.includes('breached')) return 'breached';
  return states.includes('at_risk') ? 'at_risk' : 'on_track';
}

/** Targets as they stand once due times are set anew: what was breached or met stays so, the rest is on track. */
export const retargeted = (targets: TargetStates): TargetStates => ({
  response: targets.response === 'at_risk' ? 'on_track' : targets.response,
  resolution: targets.resolution === 'at_risk' ? 'on_track' : targets.resolution,
});

export interface SlaClock extends SlaTargets {
  created: string;
  targets: TargetStates;
}

const dueOf = (clock: SlaTargets, target: SlaTarget) =>
  target === 'response' ? clock.response_by : clock.resolution_by;

/** What the clock says of each watched target at `now`: those that became at risk or breached. */
export interface SlaChange {
  target: SlaTarget;
  state: 'at_risk' | 'breached';
  due: string;
}

export function slaChanges(clock: SlaClock, now: string): SlaChange[] {
  return SLA_TARGETS.flatMap((target): SlaChange[] => {
    const state = clock.targets[target];
    const due = dueOf(clock, target);
    if (state !== 'on_track' && state !== 'at_risk') return [];
    if (due <= now) return [{ target, state: 'breached', due }];
    if (state === 'on_track' && atRiskFrom(clock.created, due) <= now)
      return [{ target, state: 'at_risk', due }];
    return [];
  });
}

/** The next moment the clock changes a watched target's state; `null` when none is watched. */
export function nextSlaChange(clock: SlaClock): string | null {
  const moments = SLA_TARGETS.flatMap((target) => {
    const state = clock.targets[target];
    const due = dueOf(clock, target);
    if (state === 'on_track') return [atRiskFrom(clock.created, due)];
    return state === 'at_risk' ? [due] : [];
  });
  return moments.sort()[0] ?? null;
}

const met = (state: TargetState): TargetState => (state === 'breached' ? state : 'met');

/** How a request's event moves its targets: the rules the decider and the read model share. */
export function targetsAfter(targets: TargetStates, event: EsmEvent): TargetStates {
  switch (event.type) {
    case 'RequestSubmitted':
      return ON_TRACK;
    case 'RequestReplied':
      return { ...targets, response: met(targets.response) };
    case 'CommentAdded':
      return event.data.visibility === 'public' ? { ...targets, response: met(targets.response) } : targets;
    case 'RequestResolved':
    case 'RequestClosed':
    case 'RequestRejected':
      return { response: met(targets.response), resolution: met(targets.resolution) };
    case 'RequestReopened':
      return { ...targets, resolution: targets.resolution === 'met' ? 'on_track' : targets.resolution };
    case 'RequestPriorityChanged':
    case 'RequestServiceChanged':
      return retargeted(targets);
    case 'RequestSlaAtRisk': {
      const { target } = event.data;
      return { ...targets, [target]: targets[target] === 'on_track' ? 'at_risk' : targets[target] };
    }
    case 'RequestSlaBreached':
      return { ...targets, [event.data.target]: 'breached' };
    default:
      return targets;
  }
}
