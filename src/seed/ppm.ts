import { createHash } from 'node:crypto';
import { isoDate, isoTimestamp } from '../clock';
import {
  addMilestone,
  addProject,
  changeProjectStatus,
  identifyRisk,
  registerDocument,
  updateMilestone,
  type MilestoneUpdate,
} from '../commands/ppm/handlers';
import type { MilestoneStatus, ProjectStatus, ProjectType } from '../events/ppm';
import { slugify, sample, thousands, writeInGroups, writeTimeline, type TimelineStep } from './toolkit';
import type { SeedContext } from './context';
import {
  DOCUMENT_TEMPLATES,
  EXTRACTION_ERRORS,
  MIME_TYPES,
  PROGRAMME_GATES,
  PROGRAMMES,
  PROJECT_GATES,
  PROJECT_MANAGERS,
  RISK_TEMPLATES,
  WORKSTREAMS,
  type DocumentTemplate,
} from './ppm-data';

const DAY = 86_400_000;
/** The day the portfolio moved into the suite: what existed then was imported with its state. */
const IMPORTED = new Date('2026-05-04T08:00:00Z');
const SEED_END = new Date('2026-11-20T17:00:00Z');
const NEVER = Number.POSITIVE_INFINITY;

type Random = SeedContext['random'];

interface Plan {
  type: ProjectType;
  code: string;
  name: string;
  description: string;
  parent: Plan | null;
  owner: string;
  sponsor: string | null;
  start: number;
  end: number;
  /** When the project goes on hold or is cancelled, if it does. */
  holdAt: number;
  cancelAt: number;
  created: number;
  id: number;
}

interface MilestonePlan {
  owner: Plan;
  name: string;
  due: number;
  workFrom: number;
  dependsOn: MilestonePlan[];
  /** When it completes (NEVER: not in sight) and when it is cancelled with its project. */
  doneAt: number;
  cancelAt: number;
  id: number;
}

const days = (count: number) => count * DAY;
const between = (random: Random, from: number, to: number) => from + random.float() * (to - from);
const atDay = (time: number) => Math.floor(time / DAY) * DAY;

function projectStatusAt(plan: Plan, time: number): ProjectStatus {
  if (time >= plan.cancelAt) return 'Cancelled';
  if (time < plan.start - days(20)) return 'Proposed';
  if (time < plan.start) return 'Approved';
  if (time >= plan.holdAt) return 'On Hold';
  if (time >= plan.end) return 'Completed';
  return 'Active';
}

function milestoneAt(plan: MilestonePlan, time: number): { status: MilestoneStatus; progress: number } {
  if (time >= plan.doneAt) return { status: 'Completed', progress: 100 };
  if (time >= plan.cancelAt)
    return { status: 'Cancelled', progress: milestoneAt(plan, plan.cancelAt - 1).progress };
  if (time < plan.workFrom) return { status: 'Not Started', progress: 0 };
  const share = (time - plan.workFrom) / Math.max(plan.due - plan.workFrom, DAY);
  const progress = Math.min(95, Math.max(5, Math.round(share * 20) * 5));
  return { status: time > plan.due ? 'At Risk' : 'In Progress', progress };
}

/** The programmes with their projects and workstreams, dated, with their fate. */
function planPortfolio(random: Random): Plan[] {
  const plans: Plan[] = [];
  let projectNumber = 0;
  let workstreamNumber = 0;
  PROGRAMMES.forEach((programme, index) => {
    const start = atDay(between(random, Date.parse('2025-01-06'), Date.parse('2026-08-03')));
    const end = atDay(start + days(random.int(600, 1000)));
    const top: Plan = {
      type: 'Programme',
      code: `PRG-${String(index + 1).padStart(2, '0')}`,
      name: programme.name,
      description: programme.description,
      parent: null,
      owner: random.pick(PROJECT_MANAGERS),
      sponsor: programme.sponsor,
      start,
      end,
      holdAt: NEVER,
      cancelAt: NEVER,
      created: Math.max(IMPORTED.getTime(), start - days(60)),
      id: 0,
    };
    plans.push(top);
    for (const project of programme.projects) {
      const projectStart = atDay(
        Math.min(between(random, start, start + (end - start) * 0.55), SEED_END.getTime() + days(50)),
      );
      const projectEnd = atDay(Math.min(projectStart + days(random.int(150, 480)), end - days(20)));
      const fate = random.float();
      const span = projectEnd - projectStart;
      const plan: Plan = {
        type: 'Project',
        code: `PRJ-${String(++projectNumber).padStart(4, '0')}`,
        name: project.name,
        description: project.description,
        parent: top,
        owner: random.pick(PROJECT_MANAGERS),
        sponsor: programme.sponsor,
        start: projectStart,
        end: projectEnd,
        holdAt: fate < 0.1 ? atDay(projectStart + span * between(random, 0.3, 0.7)) : NEVER,
        cancelAt: fate > 0.95 ? atDay(projectStart + span * between(random, 0.2, 0.6)) : NEVER,
        created: Math.max(IMPORTED.getTime(), projectStart - days(60)),
        id: 0,
      };
      plans.push(plan);
      const streams = sample(random, WORKSTREAMS, random.int(2, 4));
      for (const stream of streams) {
        const streamStart = atDay(projectStart + days(random.int(0, 45)));
        plans.push({
          ...plan,
          type: 'Workstream',
          code: `WS-${String(++workstreamNumber).padStart(4, '0')}`,
          name: `${project.name}: ${stream.name}`,
          description: `${stream.name} workstream of ${project.name}.`,
          parent: plan,
          owner: random.pick(PROJECT_MANAGERS),
          sponsor: null,
          start: streamStart,
          end: atDay(Math.max(streamStart + days(60), projectEnd - days(random.int(0, 30)))),
        });
      }
    }
  });
  return plans;
}

function milestonePlan(
  random: Random,
  owner: Plan,
  name: string,
  due: number,
  dependsOn: MilestonePlan[],
): MilestonePlan {
  const slip = random.weighted({ early: 25, onTime: 35, late: 28, stuck: 12 });
  const late = {
    early: -random.int(0, 7),
    onTime: random.int(0, 7),
    late: random.int(8, 40),
    stuck: random.int(40, 150),
  };
  const natural = due + days(late[slip]);
  const cancelAt = owner.cancelAt;
  const doneOf = (plan: MilestonePlan) => Math.min(plan.doneAt, plan.cancelAt);
  const ready = Math.max(0, ...dependsOn.map(doneOf));
  let doneAt = ready === NEVER ? NEVER : Math.max(natural, ready + DAY);
  if (doneAt >= owner.holdAt || doneAt >= cancelAt) doneAt = NEVER;
  return {
    owner,
    name,
    due: atDay(due),
    workFrom: atDay(due - days(random.int(30, 90))),
    dependsOn,
    doneAt: doneAt === NEVER ? NEVER : atDay(doneAt) + days(0.4),
    cancelAt,
    id: 0,
  };
}

/** Gates of programmes and projects, and the milestone chain of every workstream. */
function planMilestones(random: Random, plans: readonly Plan[]): MilestonePlan[] {
  const milestones: MilestonePlan[] = [];
  const add = (plan: MilestonePlan) => (milestones.push(plan), plan);
  for (const programme of plans.filter((plan) => plan.type === 'Programme')) {
    add(milestonePlan(random, programme, PROGRAMME_GATES[0], programme.start + days(30), []));
    const closings: MilestonePlan[] = [];
    for (const project of plans.filter((plan) => plan.parent === programme)) {
      const approved = add(milestonePlan(random, project, PROJECT_GATES[0], project.start + days(14), []));
      const lasts: MilestonePlan[] = [];
      for (const stream of plans.filter((plan) => plan.parent === project)) {
        const template = WORKSTREAMS.find((candidate) => stream.name.endsWith(candidate.name));
        let previous = approved;
        template?.milestones.forEach((name, index) => {
          const share = (index + 1) / (template.milestones.length + 0.5);
          const due = stream.start + (stream.end - stream.start) * share;
          previous = add(milestonePlan(random, stream, name, due, [previous]));
        });
        lasts.push(previous);
      }
      closings.push(add(milestonePlan(random, project, PROJECT_GATES[1], project.end, lasts)));
    }
    add(milestonePlan(random, programme, PROGRAMME_GATES[1], programme.end - days(15), closings.slice(0, 3)));
  }
  return milestones;
}

const FIELD_VALUES: Record<string, (plan: Plan, random: Random) => string> = {
  budget: (_plan, random) => `EUR ${thousands(random.int(4, 120) * 50_000)}`,
  payback_months: (_plan, random) => String(random.int(14, 48)),
  sponsor: (plan) => plan.sponsor ?? plan.parent?.sponsor ?? 'Steering committee',
  start_date: (plan) => isoDate(new Date(plan.start)),
  end_date: (plan) => isoDate(new Date(plan.end)),
  vendor: (_plan, random) =>
    random.pick(['Accenture', 'Capgemini', 'Deloitte', 'Sopra Steria', 'Adesso', 'Netcompany']),
  contract_value: (_plan, random) => `EUR ${thousands(random.int(2, 60) * 25_000)}`,
  requirement_count: (_plan, random) => String(random.int(40, 380)),
  version: (_plan, random) => `${random.int(1, 3)}.${random.int(0, 9)}`,
  reporting_period: (_plan, random) => `2026-${String(random.int(5, 10)).padStart(2, '0')}`,
  overall_status: (_plan, random) => random.weighted({ Green: 55, Amber: 30, Red: 15 }),
  percent_complete: (_plan, random) => String(random.int(5, 95)),
  meeting_date: (plan, random) => isoDate(new Date(plan.start + days(random.int(20, 200)))),
  decisions: (_plan, random) => String(random.int(1, 6)),
  actions: (_plan, random) => String(random.int(2, 12)),
  open_risks: (_plan, random) => String(random.int(3, 25)),
  critical_risks: (_plan, random) => String(random.int(0, 3)),
  test_cycles: (_plan, random) => String(random.int(2, 4)),
  exit_criteria: () => 'No open severity 1 or 2 defects; 95% of test cases passed',
  change_id: (_plan, random) => `CR-${String(random.int(1, 140)).padStart(3, '0')}`,
  cost_impact: (_plan, random) => `EUR ${thousands(random.int(1, 40) * 5_000)}`,
  schedule_impact_days: (_plan, random) => String(random.int(0, 45)),
};

function documentFor(random: Random, plan: Plan, template: DocumentTemplate, uploaded: number) {
  const fileName = `${plan.code}_${slugify(template.title)}_v${random.int(1, 4)}.${template.extension}`;
  const recent = SEED_END.getTime() - uploaded < days(3) && random.chance(0.5);
  const status = recent
    ? random.pick(['Queued', 'Processing'] as const)
    : random.weighted({ Extracted: 75, 'Needs Review': 12, Failed: 13 });
  const extracted = status === 'Extracted' || status === 'Needs Review';
  const fields = extracted
    ? Object.fromEntries(template.fields.map((field) => [field, FIELD_VALUES[field]?.(plan, random) ?? '']))
    : {};
  return {
    project_id: plan.id,
    title: `${plan.name}: ${template.title}`,
    document_type: template.document_type,
    file_name: fileName,
    mime_type: MIME_TYPES[template.extension],
    size_bytes: random.int(60_000, 8_000_000),
    sha256: createHash('sha256').update(`${plan.code}/${fileName}/${uploaded}`).digest('hex'),
    page_count: template.extension === 'xlsx' ? null : random.int(3, 120),
    source: random.weighted({ Upload: 55, SharePoint: 35, Email: 10 }),
    uploaded_by: plan.owner,
    uploaded_at: isoTimestamp(new Date(uploaded)),
    status,
    extracted_at: extracted ? isoTimestamp(new Date(uploaded + random.int(40, 900) * 1000)) : null,
    extracted_fields: fields,
    confidence: extracted ? (status === 'Extracted' ? random.int(80, 99) : random.int(45, 79)) / 100 : null,
    extraction_error: status === 'Failed' ? random.pick(EXTRACTION_ERRORS) : null,
  };
}

/** Status and progress moves of a milestone after it was added, up to the end of the demo window. */
const milestoneKey = (plan: MilestonePlan) => `milestone-${plan.id}`;

function milestoneSteps(plan: MilestonePlan, created: number): TimelineStep[] {
  const points = [plan.workFrom + days(7), plan.due + DAY, plan.doneAt, plan.cancelAt]
    .filter((time) => time > created && time <= SEED_END.getTime())
    .sort((a, b) => a - b);
  const steps: TimelineStep[] = [];
  const reads = plan.dependsOn.map(milestoneKey);
  let before = milestoneAt(plan, created);
  for (const time of points) {
    const now = milestoneAt(plan, time);
    let change: MilestoneUpdate | null = null;
    if (now.status === 'Completed' || now.status === 'Cancelled') change = { status: now.status };
    else if (now.status !== before.status && now.status === 'At Risk')
      change = { status: 'At Risk', progress: now.progress };
    else if (now.progress !== before.progress) change = { progress: now.progress };
    if (now.status !== before.status || now.progress !== before.progress) {
      const update = change;
      if (update) {
        steps.push({
          at: new Date(time),
          key: milestoneKey(plan),
          reads,
          write: (commands) => updateMilestone(commands, plan.id, update),
        });
      }
    }
    before = now;
  }
  return steps;
}

function projectSteps(plan: Plan): TimelineStep[] {
  const steps: TimelineStep[] = [];
  let before = projectStatusAt(plan, plan.created);
  const points = [plan.start - days(20), plan.start, plan.holdAt, plan.end, plan.cancelAt]
    .filter((time) => time > plan.created && time <= SEED_END.getTime())
    .sort((a, b) => a - b);
  for (const time of points) {
    const status = projectStatusAt(plan, time);
    if (status !== before)
      steps.push({
        at: new Date(time),
        key: `project-${plan.id}`,
        write: (commands) => changeProjectStatus(commands, plan.id, status),
      });
    before = status;
  }
  return steps;
}

/**
 * The portfolio's demo data: ten programmes with their projects and workstreams, the milestones of
 * each (gates and dependency chains), risks and source documents. What existed on 2026-05-04 was
 * imported that day with its state; later records are added when they were planned; the six months
 * after that are history: projects start, milestones report progress, complete or fall behind.
 */
export async function seedPortfolio(seed: SeedContext): Promise<void> {
  const { random } = seed;
  const plans = planPortfolio(random);
  const milestones = planMilestones(random, plans);

  for (const type of ['Programme', 'Project', 'Workstream'] as const) {
    const level = plans.filter((plan) => plan.type === type);
    const ids = await writeInGroups(
      seed,
      level,
      (plan) => new Date(plan.created),
      (commands, plan) => {
        const status = projectStatusAt(plan, plan.created);
        const running = status === 'Active' || status === 'On Hold';
        return addProject(commands, {
          code: plan.code,
          name: plan.name,
          type: plan.type,
          parent_id: plan.parent?.id ?? null,
          status,
          health: running
            ? random.weighted({ Green: 55, Amber: 30, Red: 15 })
            : status === 'Completed' || status === 'Cancelled'
              ? null
              : 'Green',
          priority: random.weighted({ Low: 15, Medium: 45, High: 30, Critical: 10 }),
          description: plan.description,
          owner: plan.owner,
          sponsor: plan.sponsor,
          start_date: isoDate(new Date(plan.start)),
          end_date: isoDate(new Date(plan.end)),
          budget:
            type === 'Programme'
              ? random.int(40, 160) * 100_000
              : type === 'Project'
                ? random.int(8, 120) * 50_000
                : random.int(4, 60) * 25_000,
          currency: 'EUR',
        });
      },
    );
    level.forEach((plan, index) => (plan.id = (ids[index] as { id: number }).id));
  }

  // Milestones in layers: a milestone is added after the milestones it depends on.
  const layerOf = new Map<MilestonePlan, number>();
  for (const plan of milestones)
    layerOf.set(plan, Math.max(-1, ...plan.dependsOn.map((dep) => layerOf.get(dep) ?? 0)) + 1);
  for (let layer = 0; milestones.some((plan) => layerOf.get(plan) === layer); layer++) {
    const level = milestones.filter((plan) => layerOf.get(plan) === layer);
    const results = await writeInGroups(
      seed,
      level,
      (plan) => new Date(plan.owner.created),
      (commands, plan) => {
        const state = milestoneAt(plan, plan.owner.created);
        return addMilestone(commands, {
          project_id: plan.owner.id,
          name: plan.name,
          description: `${plan.name} for ${plan.owner.name}.`,
          owner: plan.owner.owner,
          due_date: isoDate(new Date(plan.due)),
          depends_on: plan.dependsOn.map((dep) => dep.id),
          ...state,
          completed_on: state.status === 'Completed' ? isoDate(new Date(plan.doneAt)) : null,
        });
      },
    );
    level.forEach((plan, index) => (plan.id = (results[index] as { id: number }).id));
  }

  const risks = plans
    .filter((plan) => plan.type !== 'Workstream')
    .flatMap((plan) => {
      const count = plan.type === 'Programme' ? random.int(2, 3) : random.int(4, 6);
      const templates = sample(random, RISK_TEMPLATES, count);
      return templates.map((template) => {
        const identified = atDay(
          between(random, plan.start - days(30), Math.min(plan.end, SEED_END.getTime())),
        );
        return { plan, template, identified, created: Math.max(identified + days(0.4), IMPORTED.getTime()) };
      });
    })
    .filter((risk) => risk.created <= SEED_END.getTime())
    .sort((a, b) => a.created - b.created);
  await writeInGroups(
    seed,
    risks,
    (risk) => new Date(risk.created),
    (commands, { plan, template, identified, created }) => {
      const closed = ['Completed', 'Cancelled'].includes(projectStatusAt(plan, created));
      const status = closed
        ? 'Closed'
        : random.weighted({ Open: 40, Mitigating: 35, Accepted: 10, Closed: 15 });
      return identifyRisk(commands, {
        project_id: plan.id,
        title: template.title,
        description: template.description,
        category: template.category,
        probability: Number(random.weighted({ 1: 10, 2: 25, 3: 30, 4: 25, 5: 10 })),
        impact: Number(random.weighted({ 1: 8, 2: 22, 3: 35, 4: 25, 5: 10 })),
        status,
        mitigation: status === 'Accepted' ? null : template.mitigation,
        owner: random.chance(0.6) ? plan.owner : random.pick(PROJECT_MANAGERS),
        identified_on: isoDate(new Date(identified)),
        review_date: status === 'Closed' ? null : isoDate(new Date(identified + days(random.int(30, 90)))),
      });
    },
  );

  const documents = plans
    .filter((plan) => plan.type !== 'Workstream')
    .flatMap((plan) => {
      const [businessCase, charter, ...others] = DOCUMENT_TEMPLATES as [
        DocumentTemplate,
        DocumentTemplate,
        ...DocumentTemplate[],
      ];
      const extra = plan.type === 'Programme' ? 1 : random.int(1, 4);
      const templates = [businessCase, charter, ...sample(random, others, extra)];
      return templates.map((template, index) => {
        const earliest = plan.start - days(40 - index * 10);
        const uploaded =
          Math.floor(between(random, earliest, Math.min(plan.end, SEED_END.getTime())) / 1000) * 1000;
        return { plan, template, uploaded };
      });
    })
    .filter((document) => document.uploaded <= SEED_END.getTime())
    .sort((a, b) => a.uploaded - b.uploaded);
  await writeInGroups(
    seed,
    documents,
    ({ uploaded }) => new Date(Math.max(uploaded, IMPORTED.getTime())),
    (commands, { plan, template, uploaded }) =>
      registerDocument(commands, documentFor(random, plan, template, uploaded)),
  );

  await writeTimeline(seed, [
    ...plans.flatMap(projectSteps),
    ...milestones.flatMap((plan) => milestoneSteps(plan, plan.owner.created)),
  ]);
}
