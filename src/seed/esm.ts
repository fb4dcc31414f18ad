import { isoTimestamp } from '../clock';
import {
  actOnArticle,
  actOnRequest,
  addAgent,
  addDepartment,
  addService,
  commentOnRequest,
  draftArticle,
  submitRequest,
  changeRequest,
} from '../commands/esm/handlers';
import type { RequestPriority } from '../events/esm';
import { hrmCategories } from '../events/hrm';
import type { SeedContext } from './context';
import { AGENTS, ARTICLES, DEPARTMENTS, REPLIES, SERVICES } from './esm-data';

const HOUR = 3_600_000;
const SEED_START = new Date('2026-05-04T07:00:00Z');
const SEED_END = new Date('2026-11-20T17:00:00Z');
const REQUEST_COUNT = 320;
const BACKLOG_DAYS = 28;
const PRIORITY_WEIGHTS: Record<RequestPriority, number> = { Low: 25, Medium: 45, High: 22, Urgent: 8 };
const APPROVERS = [2001, 2002, 2003, 2004, 2005];

interface Step {
  at: Date;
  run: () => Promise<unknown>;
}

const later = (from: Date, minHours: number, maxHours: number, random: SeedContext['random']) =>
  new Date(from.getTime() + (minHours + random.float() * (maxHours - minHours)) * HOUR);

/**
 * The service desk's demo data: departments, the service catalogue, the knowledge base and a few
 * hundred requests over six months, each taken through a realistic part of its workflow. Every step is
 * a command at its own time, executed in time order, so the log reads like the history it tells.
 */
export async function seedServiceDesk(seed: SeedContext): Promise<void> {
  const { random, commands } = seed;
  seed.at(SEED_START);

  const departmentIds = new Map<string, number>();
  for (const department of DEPARTMENTS) {
    const { id } = await addDepartment(commands, { name: department.name, icon: department.icon });
    departmentIds.set(department.key, id);
  }
  const departmentOf = (key: string) => departmentIds.get(key) ?? null;

  const agentIds: number[] = [];
  for (const agent of AGENTS) {
    const { id } = await addAgent(commands, {
      name: agent.name,
      department_id: departmentOf(agent.department),
    });
    agentIds.push(id);
  }

  const services: { id: number; seed: (typeof SERVICES)[number] }[] = [];
  for (const service of SERVICES) {
    const { id } = await addService(commands, {
      name: service.name,
      department_id: departmentOf(service.department),
      category: service.category,
      description: service.description,
      icon: service.icon,
      sla_hours: service.sla_hours,
      requires_approval: service.requires_approval,
      form_schema: JSON.stringify(service.form_schema),
      is_active: service.is_active,
    });
    services.push({ id, seed: service });
  }

  const steps: Step[] = [];
  for (const article of ARTICLES) {
    const drafted = later(SEED_START, 1, 24 * 60, random);
    let articleId = 0;
    steps.push({
      at: drafted,
      run: async () => {
        ({ id: articleId } = await draftArticle(commands, {
          title: article.title,
          category_id: article.category_id,
          department_id: departmentOf(article.department),
          content: article.content,
          author: article.author,
        }));
      },
    });
    if (article.status === 'Draft') continue;
    const published = later(drafted, 2, 72, random);
    steps.push({
      at: published,
      run: () => actOnArticle(commands, articleId, { type: 'PublishArticle', at: iso(published) }),
    });
    const counted = later(published, 24, 24 * 30, random);
    const views = random.int(40, 4000);
    steps.push({
      at: counted,
      run: () => actOnArticle(commands, articleId, { type: 'RecordArticleViews', views }),
    });
    if (article.status === 'Archived') {
      const archived = later(counted, 24, 24 * 20, random);
      steps.push({
        at: archived,
        run: () => actOnArticle(commands, articleId, { type: 'ArchiveArticle', at: iso(archived) }),
      });
    }
  }

  // Requesters are the demo's employees (HR's demo data is written first): 1 to the last one's id.
  const employees = await commands.eventStore.lastStreamNumber(hrmCategories.employee);
  const active = services.filter((service) => service.seed.is_active);
  const span = SEED_END.getTime() - SEED_START.getTime() - 48 * HOUR;
  for (let index = 0; index < REQUEST_COUNT; index++) {
    const created = new Date(
      SEED_START.getTime() + 24 * HOUR + (span * (index + random.float())) / REQUEST_COUNT,
    );
    const life = requestLife(seed, random.pick(active), agentIds, employees, created);
    // The last weeks are the open backlog: their requests are somewhere along their way.
    const recent = SEED_END.getTime() - created.getTime() < BACKLOG_DAYS * 24 * HOUR;
    steps.push(...(recent ? life.slice(0, random.int(1, life.length)) : life));
  }

  steps.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of steps) {
    if (step.at > SEED_END) continue;
    seed.at(step.at);
    await step.run();
  }
}

const iso = isoTimestamp;

/** One request: submitted, perhaps approved, assigned, answered, resolved, closed and rated. */
function requestLife(
  seed: SeedContext,
  service: { id: number; seed: (typeof SERVICES)[number] },
  agents: readonly number[],
  employees: number,
  created: Date,
): Step[] {
  const { random, commands } = seed;
  const template = random.pick(service.seed.requests);
  const priority = random.weighted(PRIORITY_WEIGHTS);
  let requestId = 0;
  const act = (command: Parameters<typeof actOnRequest>[2]) => () =>
    actOnRequest(commands, requestId, command);
  const steps: Step[] = [
    {
      at: created,
      run: async () => {
        ({ id: requestId } = await submitRequest(commands, {
          title: template.title,
          status: 'Open',
          priority,
          service_id: service.id,
          department_id: null,
          requester_id: employees > 0 ? random.int(1, employees) : null,
          form_data: JSON.stringify(template.form_data),
        }));
      },
    },
  ];
  let time = created;
  const next = (minHours: number, maxHours: number) => (time = later(time, minHours, maxHours, random));

  if (service.seed.requires_approval) {
    const decided = next(1, 30);
    const approver_id = random.pick(APPROVERS);
    if (random.chance(0.1)) {
      steps.push({ at: decided, run: act({ type: 'RejectRequest', approver_id, at: iso(decided) }) });
      return steps;
    }
    steps.push({ at: decided, run: act({ type: 'ApproveRequest', approver_id, at: iso(decided) }) });
  }
  const assigned = next(0.2, 4);
  const assignee_id = random.pick(agents);
  steps.push({ at: assigned, run: () => changeRequest(commands, requestId, { assignee_id }) });
  if (random.chance(0.75)) {
    const replied = next(0.3, 10);
    const body = random.pick(REPLIES);
    steps.push({
      at: replied,
      run: () => commentOnRequest(commands, requestId, { body, visibility: 'public' }),
    });
  }
  const resolved = next(1, 60);
  steps.push({ at: resolved, run: act({ type: 'ResolveRequest', at: iso(resolved) }) });
  if (random.chance(0.08)) {
    const reopened = next(2, 48);
    steps.push({ at: reopened, run: act({ type: 'ReopenRequest', at: iso(reopened) }) });
    const resolvedAgain = next(1, 24);
    steps.push({ at: resolvedAgain, run: act({ type: 'ResolveRequest', at: iso(resolvedAgain) }) });
  }
  if (random.chance(0.6)) {
    const rated = next(1, 72);
    const rating = random.weighted({ 5: 45, 4: 30, 3: 13, 2: 7, 1: 5 });
    steps.push({ at: rated, run: act({ type: 'GiveFeedback', rating: Number(rating) }) });
  }
  const closed = next(48, 120);
  steps.push({ at: closed, run: act({ type: 'CloseRequest', at: iso(closed) }) });
  return steps;
}
