import type { PpmEvent, PpmEventOf, ProjectStatus, ProjectType } from '../../events/ppm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type ProjectEvent = Extract<PpmEvent, { type: `Project${string}` }>;
type ProjectAdded = PpmEventOf<'ProjectAdded'>;

/** What the decision needs to know about the parent a project names. */
export interface ParentFacts {
  type: ProjectType;
}

export interface AddProject {
  type: 'AddProject';
  project: ProjectAdded['data'];
  /** `undefined`: the parent named by `parent_id` does not exist. */
  parent: ParentFacts | null | undefined;
}

export interface ChangeProjectStatus {
  type: 'ChangeProjectStatus';
  status: ProjectStatus;
  at: string;
}

export type ProjectCommand = AddProject | ChangeProjectStatus;

/** The portfolio hierarchy: programmes at the top, projects in programmes (or alone), workstreams in projects. */
export const PARENT_TYPE: Record<ProjectType, ProjectType | null> = {
  Programme: null,
  Project: 'Programme',
  Workstream: 'Project',
};

/** Every legal move of a project's status (Completed and Cancelled are final). */
export const PROJECT_TRANSITIONS: Record<ProjectStatus, readonly ProjectStatus[]> = {
  Proposed: ['Approved', 'Cancelled'],
  Approved: ['Active', 'On Hold', 'Cancelled'],
  Active: ['On Hold', 'Completed', 'Cancelled'],
  'On Hold': ['Active', 'Cancelled'],
  Completed: [],
  Cancelled: [],
};

function checkParent({ project, parent }: AddProject): void {
  const parentType = PARENT_TYPE[project.type];
  if (project.parent_id === null) {
    if (project.type === 'Workstream') throw invalidField('parent_id', 'a workstream belongs to a project');
    return;
  }
  if (parent === undefined) throw invalidField('parent_id', `project ${project.parent_id} does not exist`);
  if (!parentType) throw invalidField('parent_id', 'a programme has no parent');
  if (parent?.type !== parentType) {
    throw invalidField(
      'parent_id',
      `a ${project.type.toLowerCase()} belongs to a ${parentType.toLowerCase()}, not to a ${parent?.type.toLowerCase()}`,
    );
  }
}

export const projectDecider: Decider<ProjectCommand, { status: ProjectStatus } | null, ProjectEvent> = {
  initialState: () => null,
  evolve: (state, event) =>
    event.type === 'ProjectAdded' ? { status: event.data.status } : { status: event.data.to },
  decide(command, state) {
    if (command.type === 'AddProject') {
      if (state) throw new DomainError('already_exists', `Project ${command.project.id} exists`);
      checkParent(command);
      if (command.project.end_date < command.project.start_date) {
        throw invalidField('end_date', 'must not be before start_date');
      }
      return [{ type: 'ProjectAdded', data: command.project }];
    }
    if (!state) throw new DomainError('not_found', 'Project not found');
    if (command.status === state.status) return [];
    if (!PROJECT_TRANSITIONS[state.status].includes(command.status)) {
      throw new DomainError(
        'illegal_transition',
        `A project cannot move from ${state.status} to ${command.status}`,
        {
          from: state.status,
          to: command.status,
        },
      );
    }
    return [
      {
        type: 'ProjectStatusChanged',
        data: { from: state.status, to: command.status, changed_on: command.at },
      },
    ];
  },
};
