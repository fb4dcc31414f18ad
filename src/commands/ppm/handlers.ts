import { eventCatalog } from '../../events/catalog';
import {
  ppmCategories,
  ppmEvents,
  ppmStreams,
  type MilestoneStatus,
  type PpmEvent,
  type PpmEventOf,
  type ProjectStatus,
} from '../../events/ppm';
import { creationData, once, type CommandContext } from '../context';
import { fold } from '../decider';
import { moduleCommands } from '../module-commands';
import { documentDecider } from './documents';
import { milestoneDecider, type MilestoneState } from './milestones';
import { projectDecider, type ParentFacts } from './projects';
import { riskDecider, riskRef } from './risks';

const { run, create } = moduleCommands(eventCatalog(ppmEvents));

type Data<Type extends PpmEvent['type']> = PpmEventOf<Type>['data'];

/** The data of the event that created a record, if the record exists. */
const created = <Type extends PpmEvent['type']>(context: CommandContext, stream: string) =>
  creationData<Data<Type>>(context, stream);

async function milestoneState(context: CommandContext, id: number): Promise<MilestoneState> {
  const events = await context.eventStore.readStream(ppmStreams.milestone(id));
  return fold(milestoneDecider, events as unknown as Parameters<typeof milestoneDecider.evolve>[1][]);
}

/** The current status of each of these milestones that exists. */
async function statusesOf(context: CommandContext, ids: readonly number[]) {
  const statuses = new Map<number, MilestoneStatus>();
  for (const id of new Set(ids)) {
    const state = await milestoneState(context, id);
    if (state) statuses.set(id, state.status);
  }
  return statuses;
}

export type ProjectInput = Omit<Data<'ProjectAdded'>, 'id'>;

export function addProject(context: CommandContext, project: ProjectInput) {
  return create(context, ppmCategories.project, projectDecider, async (id) => {
    let parent: ParentFacts | null | undefined = null;
    if (project.parent_id !== null) {
      const added = await created<'ProjectAdded'>(context, ppmStreams.project(project.parent_id));
      parent = added && { type: added.type };
    }
    return { type: 'AddProject' as const, project: { id, ...project }, parent };
  });
}

export function changeProjectStatus(context: CommandContext, projectId: number, status: ProjectStatus) {
  const timed = once(context);
  return run(timed.context, ppmStreams.project(projectId), projectDecider, {
    type: 'ChangeProjectStatus',
    status,
    at: timed.at,
  });
}

export type MilestoneInput = Omit<Data<'MilestoneAdded'>, 'id'>;

export function addMilestone(context: CommandContext, milestone: MilestoneInput) {
  return create(context, ppmCategories.milestone, milestoneDecider, async (id) => ({
    type: 'AddMilestone' as const,
    milestone: { id, ...milestone },
    projectExists: (await created(context, ppmStreams.project(milestone.project_id))) !== undefined,
    dependencies: await statusesOf(context, milestone.depends_on),
  }));
}

export interface MilestoneUpdate {
  progress?: number;
  status?: MilestoneStatus;
}

export async function updateMilestone(context: CommandContext, milestoneId: number, change: MilestoneUpdate) {
  const timed = once(context);
  const state = await milestoneState(context, milestoneId);
  return run(timed.context, ppmStreams.milestone(milestoneId), milestoneDecider, {
    type: 'UpdateMilestone',
    at: timed.at,
    ...change,
    dependencies: await statusesOf(context, state?.depends_on ?? []),
  });
}

export type RiskInput = Omit<Data<'RiskIdentified'>, 'id' | 'ref' | 'score' | 'rating'>;

export function identifyRisk(context: CommandContext, risk: RiskInput) {
  return create(context, ppmCategories.risk, riskDecider, async (id) => ({
    type: 'IdentifyRisk' as const,
    risk: { id, ref: riskRef(id), ...risk },
    projectExists: (await created(context, ppmStreams.project(risk.project_id))) !== undefined,
  }));
}

export type DocumentInput = Omit<Data<'DocumentRegistered'>, 'id'>;

export function registerDocument(context: CommandContext, document: DocumentInput) {
  return create(context, ppmCategories.document, documentDecider, async (id) => ({
    type: 'RegisterDocument' as const,
    document: { id, ...document },
    projectExists: (await created(context, ppmStreams.project(document.project_id))) !== undefined,
  }));
}
