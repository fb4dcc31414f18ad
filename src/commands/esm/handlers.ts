import { eventCatalog } from '../../events/catalog';
import {
  esmCategories,
  esmEvents,
  esmStreams,
  type EsmEventOf,
  type RequestPriority,
} from '../../events/esm';
import { once, type CommandContext } from '../context';
import { moduleCommands } from '../module-commands';
import { departmentDecider, serviceDecider } from './catalogue';
import { articleDecider, type KnowledgeCommand } from './knowledge';
import { requestDecider, type RequestCommand, type ServiceFacts } from './requests';

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
  return create(context, esmCategories.article, articleDecider, (id) => ({
    type: 'DraftArticle' as const,
    article: { id, ...article },
  }));
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
  }));
}

export function actOnRequest(
  context: CommandContext,
  requestId: number,
  command: Exclude<RequestCommand, { type: 'SubmitRequest' }>,
) {
  return run(context, esmStreams.request(requestId), requestDecider, command);
}
