import { isoDate } from '../../clock';
import { changeStatus } from '../../commands/hrm/handlers';
import type { InterviewStage } from '../../commands/hrm/recruitment';
import { actOnApplication, addCandidate, receiveApplication } from '../../commands/hrm/recruitment-handlers';
import type { SeedContext } from '../context';
import {
  DEPARTMENTS,
  INTERVIEW_REJECTIONS,
  SCREENING_REJECTIONS,
  type DepartmentSeed,
  type JobTemplate,
  type Locale,
  type OrganizationSeed,
} from '../hrm-data';
import { newCandidate } from './candidates';
import type { employeeFactory } from './people';
import {
  between,
  DAY,
  dayAfter,
  HOUR,
  MINUTE,
  officeTime,
  onDate,
  plus,
  SEED_END,
  weekdayFrom,
  type Step,
} from './plan';
import type { Attendee } from './time-off';

const departmentOf = (key: string) =>
  DEPARTMENTS.find((department) => department.key === key) as DepartmentSeed;

type PipelineStep =
  | { at: Date; kind: 'advance'; stage: InterviewStage }
  | { at: Date; kind: 'hold' }
  | { at: Date; kind: 'reject'; reason: string }
  | { at: Date; kind: 'accept' };

/** Screening, interviews, an offer: each step after a few days, with the usual attrition. */
function pipeline(seed: SeedContext, applied: Date, offset: number, canOffer: () => boolean): PipelineStep[] {
  const { random } = seed;
  let at = applied;
  const after = (min: number, max: number) =>
    (at = officeTime(random, plus(at, random.int(min, max) * DAY + random.int(0, 8) * HOUR), offset));
  const screened = after(1, 5);
  const roll = random.float();
  if (roll < 0.35) return [{ at: screened, kind: 'reject', reason: random.pick(SCREENING_REJECTIONS) }];
  if (roll < 0.41) return [{ at: screened, kind: 'hold' }];
  const steps: PipelineStep[] = [{ at: screened, kind: 'advance', stage: 'Screening' }];
  const interviewed = after(3, 8);
  if (random.chance(0.4))
    return [...steps, { at: interviewed, kind: 'reject', reason: 'Not a fit after the phone screen' }];
  steps.push({ at: interviewed, kind: 'advance', stage: 'Interview' });
  const offered = after(4, 10);
  if (!canOffer()) return [...steps, { at: offered, kind: 'reject', reason: 'Position filled' }];
  if (random.chance(0.55))
    return [...steps, { at: offered, kind: 'reject', reason: random.pick(INTERVIEW_REJECTIONS) }];
  steps.push({ at: offered, kind: 'advance', stage: 'Offer' });
  const answered = after(2, 6);
  if (random.chance(0.2)) return [...steps, { at: answered, kind: 'reject', reason: 'Offer declined' }];
  return [...steps, { at: answered, kind: 'accept' }];
}

/** A job posted in the season, with its placements on the brands' career sites. */
export interface Opening {
  template: JobTemplate;
  organization: OrganizationSeed;
  postedAt: Date;
  closesOn: string;
  vacancies: number;
  hiringManager: number;
  location: string;
  /** When the job is closed, if it is by the end of the season. */
  closedAt: Date | null;
  id: () => number;
  distributions: { locale: Locale; id: () => number; endsAt: Date }[];
}

export interface PlannedApplication {
  at: Date;
  flow: PipelineStep[];
}

/**
 * When candidates apply and how far each gets. Offers stop at the number of vacancies; a filled
 * opening closes two days after its last acceptance, and nobody applies to it after that.
 */
export function planApplications(seed: SeedContext, opening: Opening): PlannedApplication[] {
  const { random } = seed;
  const last = Math.min(
    opening.closedAt?.getTime() ?? Infinity,
    onDate(dayAfter(opening.closesOn, 1), 0).getTime(),
    SEED_END.getTime(),
  );
  const window = [plus(opening.postedAt, DAY), new Date(last - 4 * HOUR)] as const;
  if (window[1] <= window[0]) return [];
  const count = opening.vacancies * random.int(2, 4) + random.int(0, 2);
  const applied = Array.from({ length: count }, () => between(random, ...window)).sort(
    (a, b) => a.getTime() - b.getTime(),
  );
  let offers = 0;
  let filledAt: Date | null = null;
  const planned = applied.map((at) => {
    const flow = pipeline(seed, at, opening.organization.utc_offset, () => offers < opening.vacancies);
    const offered = flow.some((step) => step.kind === 'advance' && step.stage === 'Offer');
    const accepted = flow.find((step) => step.kind === 'accept');
    if (offered && accepted) offers++;
    if (accepted && offers === opening.vacancies) filledAt = accepted.at;
    return { at, flow };
  });
  const filled = filledAt as Date | null;
  if (filled && (!opening.closedAt || plus(filled, 2 * DAY) < opening.closedAt)) {
    opening.closedAt = plus(filled, 2 * DAY);
  }
  const closedAt = opening.closedAt;
  return closedAt ? planned.filter(({ at }) => at < plus(closedAt, -4 * HOUR)) : planned;
}

export function applicationSteps(
  seed: SeedContext,
  opening: Opening,
  planned: readonly PlannedApplication[],
  hire: ReturnType<typeof employeeFactory>,
  hires: Attendee[],
): Step[] {
  const { random, commands } = seed;
  const steps: Step[] = [];
  const cutoff = opening.closedAt ? plus(opening.closedAt, -HOUR) : null;

  for (const { at, flow } of planned) {
    const candidate = newCandidate(seed, opening.template, opening.organization);
    const distribution =
      candidate.source === 'Career Site'
        ? (opening.distributions.find((placement) => placement.locale === candidate.locale) ??
          opening.distributions[0])
        : undefined;
    let candidateId = 0;
    let applicationId = 0;
    steps.push({
      at: plus(at, -random.int(2, 30) * MINUTE),
      run: async () => {
        ({ id: candidateId } = await addCandidate(commands, candidate.profile));
      },
    });
    steps.push({
      at,
      run: async () => {
        ({ id: applicationId } = await receiveApplication(commands, {
          candidate_id: candidateId,
          job_id: opening.id(),
          source: candidate.source,
          job_distribution_id: distribution && distribution.endsAt > at ? distribution.id() : null,
        }));
      },
    });
    const act = (command: Parameters<typeof actOnApplication>[2]) => () =>
      actOnApplication(commands, applicationId, command);
    const kept = cutoff ? flow.filter((step) => step.at < cutoff) : flow;
    for (const step of kept) {
      const time = step.at.toISOString().replace(/\.\d{3}Z$/, 'Z');
      if (step.kind === 'advance')
        steps.push({ at: step.at, run: act({ type: 'AdvanceApplication', stage: step.stage, at: time }) });
      if (step.kind === 'hold') steps.push({ at: step.at, run: act({ type: 'HoldApplication', at: time }) });
      if (step.kind === 'reject') {
        steps.push({ at: step.at, run: act({ type: 'RejectApplication', at: time, reason: step.reason }) });
        if (random.chance(0.25)) {
          const archived = plus(step.at, random.int(30, 60) * DAY);
          steps.push({
            at: archived,
            run: () => changeStatus(commands, 'candidate', candidateId, 'Archived'),
          });
        }
      }
      if (step.kind === 'accept') {
        steps.push({ at: step.at, run: act({ type: 'AcceptApplication', at: time }) });
        steps.push({
          at: plus(step.at, 5 * MINUTE),
          run: () => changeStatus(commands, 'candidate', candidateId, 'Hired'),
        });
        steps.push(...joining(seed, opening, candidate.name, step.at, hire, hires));
      }
    }
    const ended = kept.some((step) => step.kind === 'reject' || step.kind === 'accept');
    if (cutoff && !ended) {
      const time = cutoff.toISOString().replace(/\.\d{3}Z$/, 'Z');
      steps.push({
        at: cutoff,
        run: act({ type: 'RejectApplication', at: time, reason: 'Position closed' }),
      });
    }
  }
  return steps;
}

/** The hired candidate starts three to six weeks after accepting, reporting to the hiring manager. */
function joining(
  seed: SeedContext,
  opening: Opening,
  name: { first_name: string; last_name: string },
  accepted: Date,
  hire: ReturnType<typeof employeeFactory>,
  hires: Attendee[],
): Step[] {
  const { random } = seed;
  const start = weekdayFrom(dayAfter(isoDate(accepted), random.int(21, 42)));
  const at = onDate(start, 7);
  if (at > SEED_END) return [];
  let employeeId = 0;
  const department = opening.template.department;
  hires.push({
    employeeId: () => employeeId,
    department: departmentOf(department),
    organization: opening.organization,
    from: start,
    leave: [],
  });
  return [
    {
      at,
      run: async () => {
        employeeId = await hire({
          department: departmentOf(department),
          organization: opening.organization,
          designation: opening.template.designation,
          reports_to: opening.hiringManager,
          employment_type: opening.template.employment_type,
          date_of_joining: start,
          work_location: opening.location,
          name,
        });
      },
    },
  ];
}
