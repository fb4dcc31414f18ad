import { eventCatalog } from '../../events/catalog';
import {
  esmCategories,
  esmEvents,
  esmStreams,
  type CommentVisibility,
  type EsmEventOf,
  type RequestPriority,
  type RequestStatus,
} from '../../events/esm';
import { DEFAULT_SLA_HOURS } from '../../esm/sla';
import { hrmStream } from '../../events/hrm';
import type { DecidingPerson } from '../deciding';
import { once, type CommandContext } from '../context';
import { moduleCommands } from '../module-commands';
import { agentDecider } from './agents';
import { departmentDecider, serviceDecider } from './catalogue';
import { articleDecider, type KnowledgeCommand } from './knowledge';
import {
  requestDecider,
  type AgentFacts,
  type RequestCommand,
  type ServiceFacts,
  type UpdateRequest,
} from './requests';

const { run, create } = moduleCommands(eventCatalog(esmEvents));

async function exists(context: CommandContext, stream: string): Promise<boolean> {
  return (await context.eventStore.readStream(stream, { toRevision: 0 })).length > 0;
}

export type DepartmentInput = Omit<EsmEventOf<'DepartmentAdded'>['data'], 'id'>;

export function addDepartment(context: CommandContext, department: DepartmentInput) {
  return create(context, esmCategories.department, departmentDecider, (id) => ({
    type: 'AddDepartment' as const,
    department: { id, ...department },
  }));
}

export type ServiceInput = Omit<EsmEventOf<'ServiceAdded'>['data'], 'id'>;

export function addService(context: CommandContext, service: ServiceInput) {
  return create(context, esmCategories.service, serviceDecider, async (id) => ({
    type: 'AddService' as const,
    service: { id, ...service },
    departmentExists:
      service.department_id !== null && (await exists(context, esmStreams.department(service.department_id))),
  }));
}

export type ArticleInput = Omit<EsmEventOf<'KnowledgeArticleDrafted'>['data'], 'id'>;

export function draftArticle(context: CommandContext, article: ArticleInput) {
  return create(context, esmCategories.article, articleDecider, async (id) => ({
    type: 'DraftArticle' as const,
    article: { id, ...article },
    departmentExists:
      article.department_id !== null && (await exists(context, esmStreams.department(article.department_id))),
  }));
}

/** Publishes the article (again, if archived) or archives it, at the time of the command. */
export function setArticleStatus(
  context: CommandContext,
  articleId: number,
  status: 'Published' | 'Archived',
) {
  const { context: timed, at } = once(context);
  const type = status === 'Published' ? 'PublishArticle' : 'ArchiveArticle';
  return run(timed, esmStreams.article(articleId), articleDecider, { type, at });
}

export function actOnArticle(context: CommandContext, articleId: number, command: KnowledgeCommand) {
  return run(context, esmStreams.article(articleId), articleDecider, command);
}

async function serviceFacts(context: CommandContext, serviceId: number): Promise<ServiceFacts | undefined> {
  const [added] = await context.eventStore.readStream(esmStreams.service(serviceId), { toRevision: 0 });
  if (!added) return undefined;
  const { department_id, sla_hours, requires_approval, is_active } =
    added.data as EsmEventOf<'ServiceAdded'>['data'];
  return { department_id, sla_hours, requires_approval, is_active };
}

export interface RequestInput {
  title: string;
  status: 'Open' | 'Pending Approval';
  priority: RequestPriority;
  service_id: number | null;
  department_id: number | null;
  requester_id: number | null;
  form_data: string | null;
}

export function submitRequest(context: CommandContext, input: RequestInput) {
  // The request's `created` is its event's `occurred_at`.
  const { context: timed, at } = once(context);
  return create(timed, esmCategories.request, requestDecider, async (id) => ({
    type: 'SubmitRequest' as const,
    id,
    at: new Date(at),
    ...input,
    service: input.service_id === null ? null : await serviceFacts(context, input.service_id),
    departmentExists:
      input.department_id !== null && (await exists(context, esmStreams.department(input.department_id))),
    requesterExists:
      input.requester_id !== null && (await exists(context, hrmStream('employee', input.requester_id))),
  }));
}

export function actOnRequest(
  context: CommandContext,
  requestId: number,
  command: Exclude<RequestCommand, { type: 'SubmitRequest' }>,
) {
  return run(context, esmStreams.request(requestId), requestDecider, command);
}

export type AgentInput = Omit<EsmEventOf<'AgentAdded'>['data'], 'id'>;

export function addAgent(context: CommandContext, agent: AgentInput) {
  return create(context, esmCategories.agent, agentDecider, async (id) => ({
    type: 'AddAgent' as const,
    agent: { id, ...agent },
    departmentExists:
      agent.department_id !== null && (await exists(context, esmStreams.department(agent.department_id))),
  }));
}

export function setAgentActive(context: CommandContext, agentId: number, is_active: boolean) {
  const { context: timed, at } = once(context);
  return run(timed, esmStreams.agent(agentId), agentDecider, { type: 'SetAgentActive', is_active, at });
}

async function agentFacts(context: CommandContext, agentId: number): Promise<AgentFacts> {
  const events = await context.eventStore.readStream(esmStreams.agent(agentId));
  if (events.length === 0) return undefined;
  return { is_active: events[events.length - 1]?.type !== 'AgentDeactivated' };
}

/** The service a request is raised against now, from its stream. */
async function currentServiceId(context: CommandContext, requestId: number): Promise<number | null> {
  let serviceId: number | null = null;
  for (const event of await context.eventStore.readStream(esmStreams.request(requestId))) {
    if (event.type === 'RequestSubmitted')
      serviceId = (event.data as { service_id: number | null }).service_id;
    if (event.type === 'RequestServiceChanged') serviceId = (event.data as { to: number }).to;
  }
  return serviceId;
}

export interface RequestChanges {
  status?: RequestStatus;
  approver_id?: number;
  decider?: DecidingPerson;
  assignee_id?: number | null;
  priority?: RequestPriority;
  service_id?: number;
  feedback_rating?: number;
}

/** A back-office edit, with the facts its changes are decided on: the agent, the service and its SLA. */
export async function changeRequest(context: CommandContext, requestId: number, changes: RequestChanges) {
  const { context: timed, at } = once(context);
  const command: UpdateRequest = { type: 'UpdateRequest', at, ...changes };
  if (changes.assignee_id !== undefined && changes.assignee_id !== null) {
    command.agent = await agentFacts(context, changes.assignee_id);
  }
  if (changes.service_id !== undefined) {
    command.service = await serviceFacts(context, changes.service_id);
  }
  if (changes.priority !== undefined) {
    const serviceId = changes.service_id ?? (await currentServiceId(context, requestId));
    const service = serviceId === null ? undefined : await serviceFacts(context, serviceId);
    command.sla_hours = service?.sla_hours ?? DEFAULT_SLA_HOURS;
  }
  return run(timed, esmStreams.request(requestId), requestDecider, command);
}

export function commentOnRequest(
  context: CommandContext,
  requestId: number,
  comment: { body: string; visibility: CommentVisibility },
) {
  const { context: timed, at } = once(context);
  return run(timed, esmStreams.request(requestId), requestDecider, { type: 'AddComment', ...comment, at });
}

/** The SLA sweep's check of one request at `at`. */
export function checkRequestSla(context: CommandContext, requestId: number, at: string) {
  return run(context, esmStreams.request(requestId), requestDecider, { type: 'CheckSla', at });
}
