import { eventCatalog } from '../../events/catalog';
import {
  esmCategories,
  esmEvents,
  esmStreams,
  type EsmEventOf,
  type RequestPriority,
} from '../../events/esm';
import { handleCommand, type CommandEnvironment } from '../command-handler';
import { createNumbered, type CommandContext, type CommandResult } from '../context';
import { departmentDecider, serviceDecider } from './catalogue';
import { articleDecider, type KnowledgeCommand } from './knowledge';
import { requestDecider, type RequestCommand, type ServiceFacts } from './requests';

const catalog = eventCatalog(esmEvents);

function environment(context: CommandContext): CommandEnvironment {
  return {
    eventStore: context.eventStore,
    catalog,
    metadata: context.metadata(),
    eventId: context.eventId,
    idempotency: context.idempotency,
  };
}

async function exists(context: CommandContext, stream: string): Promise<boolean> {
  return (await context.eventStore.readStream(stream, { toRevision: 0 })).length > 0;
}

export type DepartmentInput = Omit<EsmEventOf<'DepartmentAdded'>['data'], 'id'>;

export function addDepartment(context: CommandContext, department: DepartmentInput) {
  return createNumbered(context, esmCategories.department, async (id) => {
    const stream = esmStreams.department(id);
    const command = { type: 'AddDepartment' as const, department: { id, ...department } };
    return { stream, outcome: await handleCommand(environment(context), stream, departmentDecider, command) };
  });
}

export type ServiceInput = Omit<EsmEventOf<'ServiceAdded'>['data'], 'id'>;

export function addService(context: CommandContext, service: ServiceInput) {
  return createNumbered(context, esmCategories.service, async (id) => {
    const stream = esmStreams.service(id);
    const departmentExists =
      service.department_id !== null && (await exists(context, esmStreams.department(service.department_id)));
    const command = { type: 'AddService' as const, service: { id, ...service }, departmentExists };
    return { stream, outcome: await handleCommand(environment(context), stream, serviceDecider, command) };
  });
}

export type ArticleInput = Omit<EsmEventOf<'KnowledgeArticleDrafted'>['data'], 'id'>;

export function draftArticle(context: CommandContext, article: ArticleInput) {
  return createNumbered(context, esmCategories.article, async (id) => {
    const stream = esmStreams.article(id);
    const command = { type: 'DraftArticle' as const, article: { id, ...article } };
    return { stream, outcome: await handleCommand(environment(context), stream, articleDecider, command) };
  });
}

export async function actOnArticle(
  context: CommandContext,
  articleId: number,
  command: KnowledgeCommand,
): Promise<CommandResult> {
  const stream = esmStreams.article(articleId);
  return { stream, outcome: await handleCommand(environment(context), stream, articleDecider, command) };
}

async function serviceFacts(context: CommandContext, serviceId: number): Promise<ServiceFacts | undefined> {
  const history = await context.eventStore.readStream(esmStreams.service(serviceId), { toRevision: 0 });
  const added = history[0]?.data as EsmEventOf<'ServiceAdded'>['data'] | undefined;
  return (
    added && {
      department_id: added.department_id,
      sla_hours: added.sla_hours,
      requires_approval: added.requires_approval,
      is_active: added.is_active,
    }
  );
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
  return createNumbered(context, esmCategories.request, async (id) => {
    const stream = esmStreams.request(id);
    const metadata = context.metadata();
    const command: RequestCommand = {
      type: 'SubmitRequest',
      id,
      at: new Date(metadata.occurred_at),
      ...input,
      service: input.service_id === null ? null : await serviceFacts(context, input.service_id),
      departmentExists:
        input.department_id !== null && (await exists(context, esmStreams.department(input.department_id))),
    };
    const outcome = await handleCommand(
      { ...environment(context), metadata },
      stream,
      requestDecider,
      command,
    );
    return { stream, outcome };
  });
}

export async function actOnRequest(
  context: CommandContext,
  requestId: number,
  command: Exclude<RequestCommand, { type: 'SubmitRequest' }>,
): Promise<CommandResult> {
  const stream = esmStreams.request(requestId);
  return { stream, outcome: await handleCommand(environment(context), stream, requestDecider, command) };
}
