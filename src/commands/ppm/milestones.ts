import type { MilestoneStatus, PpmEvent, PpmEventOf } from '../../events/ppm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type MilestoneEvent = Extract<PpmEvent, { type: `Milestone${string}` }>;

export interface AddMilestone {
  type: 'AddMilestone';
  milestone: PpmEventOf<'MilestoneAdded'>['data'];
  projectExists: boolean;
  /** Status of each milestone it depends on that exists. */
  dependencies: ReadonlyMap<number, MilestoneStatus>;
}

/**
 * A back-office update: new progress, a new status, or both. Progress 100 completes the milestone,
 * progress below 100 reopens a completed one, and the first progress above 0 starts it.
 */
export interface UpdateMilestone {
  type: 'UpdateMilestone';
  at: string;
  progress?: number;
  status?: MilestoneStatus;
  /** Status of each milestone it depends on (they must be done before it is Completed). */
  dependencies: ReadonlyMap<number, MilestoneStatus>;
}

export type MilestoneCommand = AddMilestone | UpdateMilestone;

export type MilestoneState = {
  status: MilestoneStatus;
  progress: number;
  depends_on: readonly number[];
} | null;

/** Every legal move of a milestone's status; anything else is an illegal transition (409). */
export const MILESTONE_TRANSITIONS: Record<MilestoneStatus, readonly MilestoneStatus[]> = {
  'Not Started': ['In Progress', 'At Risk', 'Completed', 'Cancelled'],
  'In Progress': ['At Risk', 'Completed', 'Cancelled'],
  'At Risk': ['In Progress', 'Completed', 'Cancelled'],
  Completed: ['In Progress', 'At Risk'],
  Cancelled: [],
};

/** Dependencies that are done: completed, or cancelled and so no longer in the way. */
const DONE: readonly MilestoneStatus[] = ['Completed', 'Cancelled'];

function blockers(
  dependsOn: readonly number[],
  dependencies: ReadonlyMap<number, MilestoneStatus>,
): number[] {
  return dependsOn.filter((id) => !DONE.includes(dependencies.get(id) as MilestoneStatus));
}

function add(command: AddMilestone): MilestoneEvent[] {
  const { milestone, dependencies } = command;
  if (!command.projectExists) {
    throw invalidField('project_id', `project ${milestone.project_id} does not exist`);
  }
  const missing = milestone.depends_on.filter((id) => !dependencies.has(id));
  if (missing.length > 0) throw invalidField('depends_on', `milestone ${missing.join(', ')} does not exist`);
  const completed = milestone.status === 'Completed';
  if (completed !== (milestone.progress === 100) || completed !== (milestone.completed_on !== null)) {
    throw invalidField('progress', 'is 100, with completed_on, exactly when the milestone is Completed');
  }
  if (milestone.status === 'Not Started' && milestone.progress > 0) {
    throw invalidField('progress', 'is 0 while the milestone is Not Started');
  }
  if (completed && blockers(milestone.depends_on, dependencies).length > 0) {
    throw invalidField('status', 'a milestone is Completed only after the milestones it depends on');
  }
  return [{ type: 'MilestoneAdded', data: milestone }];
}

/** The status an update leads to when it names none: progress moves it along. */
function impliedStatus(from: MilestoneStatus, progress: number | undefined): MilestoneStatus {
  if (progress === undefined || from === 'Cancelled') return from;
  if (progress === 100) return 'Completed';
  if (from === 'Completed') return 'In Progress';
  if (from === 'Not Started' && progress > 0) return 'In Progress';
  return from;
}

function update(command: UpdateMilestone, state: NonNullable<MilestoneState>): MilestoneEvent[] {
  const from = state.status;
  const to = command.status ?? impliedStatus(from, command.progress);
  if (to !== from && !MILESTONE_TRANSITIONS[from].includes(to)) {
    throw new DomainError('illegal_transition', `A milestone cannot move from ${from} to ${to}`, {
      from,
      to,
    });
  }
  if (from === 'Cancelled' && command.progress !== undefined && command.progress !== state.progress) {
    throw new DomainError('illegal_transition', 'Cannot report progress on a milestone that is Cancelled', {
      from,
      action: 'report progress',
    });
  }
  const progress = to === 'Completed' ? 100 : (command.progress ?? state.progress);
  if (to === 'Completed' && command.progress !== undefined && command.progress !== 100) {
    throw invalidField('progress', 'must be 100 for a Completed milestone');
  }
  if (to !== 'Completed' && to !== 'Cancelled' && progress === 100) {
    throw invalidField('progress', `must be below 100 for a milestone that is ${to}`);
  }
  if (to === 'Not Started' && progress > 0) {
    throw invalidField('progress', 'must be 0 for a milestone that is Not Started');
  }
  if (to === 'Completed' && from !== 'Completed') {
    const blocked = blockers(state.depends_on, command.dependencies);
    if (blocked.length > 0) {
      throw new DomainError(
        'illegal_transition',
        `Cannot complete a milestone before the milestones it depends on (${blocked.join(', ')})`,
        { from, to, blocked_by: blocked },
      );
    }
  }
  const events: MilestoneEvent[] = [];
  if (progress !== state.progress) {
    events.push({ type: 'MilestoneProgressReported', data: { progress, reported_on: command.at } });
  }
  if (to !== from)
    events.push({ type: 'MilestoneStatusChanged', data: { from, to, changed_on: command.at } });
  return events;
}

export const milestoneDecider: Decider<MilestoneCommand, MilestoneState, MilestoneEvent> = {
  initialState: () => null,
  evolve(state, event) {
    switch (event.type) {
      case 'MilestoneAdded': {
        const { status, progress, depends_on } = event.data;
        return { status, progress, depends_on };
      }
      case 'MilestoneProgressReported':
        return state && { ...state, progress: event.data.progress };
      case 'MilestoneStatusChanged':
        return state && { ...state, status: event.data.to };
    }
  },
  decide(command, state) {
    if (command.type === 'AddMilestone') {
      if (state) throw new DomainError('already_exists', `Milestone ${command.milestone.id} exists`);
      return add(command);
    }
    if (!state) throw new DomainError('not_found', 'Milestone not found');
    return update(command, state);
  },
};
