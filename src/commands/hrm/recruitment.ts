import {
  APPLICATION_STAGES,
  type ApplicationStage,
  type ApplicationStatus,
  type HrmEventOf,
} from '../../events/hrm';
import type { Decider } from '../decider';
import { DomainError, illegalTransition, invalidField } from '../errors';
import { checkReferences, lifecycleDecider, type LifecycleCommand, type Reference } from './lifecycle';

/** A job opening (Frappe HRMS): Open while it takes applications; it may be reopened. */
export const jobDecider = lifecycleDecider({
  entity: 'job',
  added: 'JobOpened',
  changed: 'JobStatusChanged',
  initial: 'Open',
  transitions: { Open: ['Closed'], Closed: ['Open'] },
  check(job) {
    if (job.salary_max < job.salary_min) throw invalidField('salary_max', 'must not be below salary_min');
    if (job.closes_on !== null && job.closes_on < job.posted_on) {
      throw invalidField('closes_on', 'must not be before posted_on');
    }
  },
});

export const candidateDecider = lifecycleDecider({
  entity: 'candidate',
  added: 'CandidateAdded',
  changed: 'CandidateStatusChanged',
  initial: 'Active',
  transitions: { Active: ['Hired', 'Archived'], Archived: ['Active'], Hired: [] },
});

const distributionLifecycle = lifecycleDecider({
  entity: 'job distribution',
  added: 'JobDistributed',
  changed: 'JobDistributionStatusChanged',
  initial: 'Live',
  transitions: { Live: ['Expired', 'Withdrawn'], Expired: ['Live'], Withdrawn: [] },
});

type DistributionData = HrmEventOf<'JobDistributed'>['data'];
type DistributionStatus = HrmEventOf<'JobDistributionStatusChanged'>['data']['status'];

/** Placing a job on a career site, in one of the site's locales and under the site's brand. */
export type DistributeJob = Extract<
  LifecycleCommand<DistributionData, DistributionStatus>,
  { type: 'Add' }
> & {
  /** The career site as the handler found it; `null` when it does not exist. */
  site: { brand_id: number; locales: readonly string[] } | null;
};

export type DistributionCommand =
  DistributeJob | Extract<LifecycleCommand<DistributionData, DistributionStatus>, { type: 'ChangeStatus' }>;

export const distributionDecider: Decider<
  DistributionCommand,
  Parameters<typeof distributionLifecycle.decide>[1],
  ReturnType<typeof distributionLifecycle.decide>[number]
> = {
  ...distributionLifecycle,
  decide(command, state) {
    if (command.type === 'Add' && !state) {
      checkReferences(command.references);
      const { data, site } = command;
      if (site && !site.locales.includes(data.locale)) {
        throw invalidField('locale', `career site ${data.career_site_id} does not publish in ${data.locale}`);
      }
      if (site && site.brand_id !== data.brand_id) {
        throw invalidField(
          'brand_id',
          `career site ${data.career_site_id} belongs to brand ${site.brand_id}`,
        );
      }
    }
    return distributionLifecycle.decide(command, state);
  },
};

type ApplicationEvent =
  | HrmEventOf<'ApplicationReceived'>
  | HrmEventOf<'ApplicationAdvanced'>
  | HrmEventOf<'ApplicationHeld'>
  | HrmEventOf<'ApplicationRejected'>
  | HrmEventOf<'ApplicationAccepted'>;

export type InterviewStage = HrmEventOf<'ApplicationAdvanced'>['data']['stage'];

export type ApplicationCommand =
  | {
      type: 'ReceiveApplication';
      application: HrmEventOf<'ApplicationReceived'>['data'];
      /** The candidate, the job and the distribution it came through. */
      references: readonly Reference[];
    }
  | { type: 'AdvanceApplication'; stage: InterviewStage; at: string }
  | { type: 'HoldApplication'; at: string }
  | { type: 'RejectApplication'; at: string; reason: string }
  | { type: 'AcceptApplication'; at: string };

export type ApplicationState = {
  status: ApplicationStatus;
  stage: ApplicationStage;
  /** Whose application it is: its rejection's reason is theirs. */
  candidate_id: number;
} | null;

type ApplicationAction = 'advance' | 'hold' | 'reject' | 'accept';

/**
 * The statuses each action starts from (Frappe HRMS's job applicant statuses). Advancing moves the
 * application to a later stage and marks it Replied; accepting needs the Offer stage.
 */
export const APPLICATION_TRANSITIONS: Readonly<Record<ApplicationAction, readonly ApplicationStatus[]>> = {
  advance: ['Open', 'Replied', 'Hold'],
  hold: ['Open', 'Replied'],
  reject: ['Open', 'Replied', 'Hold'],
  accept: ['Replied'],
};

function allow(state: NonNullable<ApplicationState>, action: ApplicationAction): void {
  if (!APPLICATION_TRANSITIONS[action].includes(state.status)) {
    throw illegalTransition('job application', state.status, action);
  }
}

const stageIndex = (stage: ApplicationStage) => APPLICATION_STAGES.indexOf(stage);

export const applicationDecider: Decider<ApplicationCommand, ApplicationState, ApplicationEvent> = {
  initialState: () => null,
  evolve(state, event) {
    switch (event.type) {
      case 'ApplicationReceived':
        return { status: 'Open', stage: 'Applied', candidate_id: event.data.candidate_id };
      case 'ApplicationAdvanced':
        return state && { ...state, status: 'Replied', stage: event.data.stage };
      case 'ApplicationHeld':
        return state && { ...state, status: 'Hold' };
      case 'ApplicationRejected':
        return state && { ...state, status: 'Rejected' };
      case 'ApplicationAccepted':
        return state && { ...state, status: 'Accepted', stage: 'Hired' };
    }
  },
  decide(command, state) {
    if (command.type === 'ReceiveApplication') {
      if (state) throw new DomainError('already_exists', `Application ${command.application.id} exists`);
      checkReferences(command.references);
      return [{ type: 'ApplicationReceived', data: command.application }];
    }
    if (!state) throw new DomainError('not_found', 'Application not found');
    switch (command.type) {
      case 'AdvanceApplication':
        allow(state, 'advance');
        if (stageIndex(command.stage) <= stageIndex(state.stage)) {
          throw new DomainError(
            'illegal_transition',
            `A job application at ${state.stage} cannot move to ${command.stage}`,
            { from: state.stage, to: command.stage },
          );
        }
        return [{ type: 'ApplicationAdvanced', data: { stage: command.stage, advanced_on: command.at } }];
      case 'HoldApplication':
        allow(state, 'hold');
        return [{ type: 'ApplicationHeld', data: { held_on: command.at } }];
      case 'RejectApplication':
        allow(state, 'reject');
        return [
          {
            type: 'ApplicationRejected',
            data: { rejected_on: command.at, reason: command.reason, candidate_id: state.candidate_id },
          },
        ];
      case 'AcceptApplication':
        allow(state, 'accept');
        if (state.stage !== 'Offer') {
          throw new DomainError(
            'illegal_transition',
            `A job application at ${state.stage} has no offer to accept`,
            {
              from: state.stage,
              action: 'accept',
            },
          );
        }
        return [{ type: 'ApplicationAccepted', data: { accepted_on: command.at } }];
    }
  },
};
