import { isoDate } from '../../clock';
import { addTeam, changeStatus } from '../../commands/hrm/handlers';
import { distributeJob, openJob } from '../../commands/hrm/recruitment-handlers';
import type { SeedContext } from '../context';
import {
  CITIES,
  COUNTRY_LOCALE,
  JOB_TEMPLATES,
  ORGANIZATIONS,
  TEAMS,
  type Locale,
  type OrganizationSeed,
} from '../hrm-data';
import { applicationSteps, planApplications, type Opening } from './applications';
import { employeeFactory } from './people';
import {
  DAY,
  dayAfter,
  HOUR,
  MINUTE,
  onDate,
  plus,
  sample,
  SEED_END,
  SEED_START,
  weekdayFrom,
  weightedPick,
  type Person,
  type Step,
  type Structure,
} from './plan';
import { structureId } from './structure';
import type { Attendee } from './time-off';

const JOB_COUNT = 42;
/** Openings posted before this are filled or given up by the demo's "today"; later ones are still open. */
const LATE_POSTING = new Date('2026-09-10T00:00:00Z');
const DEPARTMENT_DEMAND: Readonly<Record<string, number>> = { ops: 6, sup: 5, sal: 3, eng: 2 };

const organizationOf = (key: string) =>
  ORGANIZATIONS.find((organization) => organization.key === key) as OrganizationSeed;

interface Team {
  id: number;
  organization: string;
  department: string;
  members: number[];
}

/** Recruiting teams of Talent Acquisition staff, one per country and hiring department. */
export async function seedTeams(seed: SeedContext, structure: Structure, people: readonly Person[]) {
  const { random, commands } = seed;
  seed.at(plus(SEED_START, 2 * HOUR));
  const recruiters = people.filter((person) => person.department.key === 'ta');
  const headOfTalent = recruiters.find((person) => person.kind === 'head') as Person;
  const teams: Team[] = [];
  const steps: Step[] = [];
  for (const team of TEAMS) {
    const local = recruiters.filter((person) => person.organization.key === team.organization);
    const lead = local.find((person) => person.kind !== 'ic') ?? local[0] ?? headOfTalent;
    const others = (local.length > 1 ? local : recruiters).filter((person) => person !== lead);
    const members = sample(random, others, random.int(1, 2)).map((person) => person.id);
    const { id } = await addTeam(commands, {
      organization_id: structureId(structure.organizations, team.organization),
      department_id: structureId(structure.departments, team.department),
      country: organizationOf(team.organization).country,
      name: team.name,
      lead_employee_id: lead.id,
      member_ids: members,
    });
    if (team.paused) {
      steps.push({
        at: new Date('2026-09-14T09:00:00Z'),
        run: () => changeStatus(commands, 'team', id, 'Inactive'),
      });
    } else {
      teams.push({
        id,
        organization: team.organization,
        department: team.department,
        members: [lead.id, ...members],
      });
    }
  }
  return { teams, steps, headOfTalent };
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Openings across the season with their placements on the brands' career sites, candidates applying
 * through them (profiles extracted from their CVs), each application taken through screening,
 * interviews and offers; accepted offers make the candidate Hired and, once they start, an employee.
 */
export function recruitmentSteps(
  seed: SeedContext,
  structure: Structure,
  people: readonly Person[],
  teams: readonly Team[],
  headOfTalent: Person,
): { steps: Step[]; hires: Attendee[] } {
  const { random, commands } = seed;
  const hire = employeeFactory(seed, structure);
  const steps: Step[] = [];
  const hires: Attendee[] = [];
  const span = SEED_END.getTime() - SEED_START.getTime() - 14 * DAY;

  for (let index = 0; index < JOB_COUNT; index++) {
    const template = weightedPick(random, JOB_TEMPLATES, (job) => DEPARTMENT_DEMAND[job.department] ?? 1);
    const organization = organizationOf(random.pick(template.organizations));
    const postedDate = weekdayFrom(
      isoDate(new Date(SEED_START.getTime() + 7 * DAY + (span * (index + random.float())) / JOB_COUNT)),
    );
    const postedAt = onDate(postedDate, 9 - organization.utc_offset + random.float() * 2);
    const team = teams.find(
      (candidate) =>
        candidate.organization === organization.key && candidate.department === template.department,
    );
    const leaders = people.filter(
      (person) => person.department.key === template.department && person.kind !== 'ic',
    );
    const hiringManager = (leaders.find((person) => person.organization === organization) ??
      leaders[0]) as Person;
    const talent = people.filter(
      (person) => person.department.key === 'ta' && person.organization === organization,
    );
    const recruiter = team ? random.pick(team.members) : (talent[0] ?? headOfTalent).id;
    const brandKey = template.brand?.[organization.key] ?? 'halcyon';
    const field = ['ops', 'sup'].includes(template.department);
    const band = (value: number) => Math.round((value * organization.gbp_rate) / 500) * 500;
    let jobId = 0;
    const opening: Opening = {
      template,
      organization,
      postedAt,
      closesOn: dayAfter(postedDate, random.int(42, 70)),
      vacancies: field ? random.int(2, 4) : random.int(1, 2),
      hiringManager: hiringManager.id,
      location: field ? random.pick(CITIES[organization.country]) : organization.headquarters_city,
      closedAt: postedAt < LATE_POSTING ? plus(postedAt, random.int(35, 85) * DAY) : null,
      id: () => jobId,
      distributions: [],
    };
    steps.push({
      at: postedAt,
      run: async () => {
        ({ id: jobId } = await openJob(commands, {
          title: template.titles['en-GB'],
          designation: template.designation,
          department_id: structureId(structure.departments, template.department),
          organization_id: structureId(structure.organizations, organization.key),
          brand_id: structureId(structure.brands, brandKey),
          team_id: team?.id ?? null,
          hiring_manager_id: opening.hiringManager,
          recruiter_id: recruiter,
          location: opening.location,
          country: organization.country,
          employment_type: template.employment_type,
          remote_policy: template.remote_policy,
          vacancies: opening.vacancies,
          salary_min: band(template.salary[0]),
          salary_max: band(template.salary[1]),
          salary_currency: organization.default_currency,
          salary_period: 'Year',
          description: template.description,
          posted_on: postedDate,
          closes_on: opening.closesOn,
        }));
      },
    });
    // Applications first: a filled opening closes early, which ends its placements early too.
    const planned = planApplications(seed, opening);
    steps.push(...distributionSteps(seed, structure, opening, brandKey));
    steps.push(...applicationSteps(seed, opening, planned, hire, hires));
  }
  return { steps, hires };
}

function distributionSteps(
  seed: SeedContext,
  structure: Structure,
  opening: Opening,
  brandKey: string,
): Step[] {
  const { commands } = seed;
  const site = structure.sites.get(brandKey);
  if (!site) return [];
  const home = COUNTRY_LOCALE[opening.organization.country];
  const locales = (
    opening.template.remote_policy === 'Remote'
      ? site.seed.locales
      : site.seed.locales.filter((locale) => locale === home || locale === 'en-GB')
  ) as Locale[];
  const expiresAt = onDate(dayAfter(opening.closesOn, 1), 0);
  const withdrawn = opening.closedAt !== null && opening.closedAt < expiresAt;
  const endsAt = withdrawn ? plus(opening.closedAt as Date, -2 * MINUTE) : expiresAt;
  const steps: Step[] = [];
  for (const [index, locale] of locales.entries()) {
    let distributionId = 0;
    const title = opening.template.titles[locale];
    steps.push({
      at: plus(opening.postedAt, (10 + 5 * index) * MINUTE),
      run: async () => {
        const jobId = opening.id();
        ({ id: distributionId } = await distributeJob(commands, {
          job_id: jobId,
          career_site_id: site.id,
          brand_id: structureId(structure.brands, brandKey),
          locale,
          localized_title: title,
          url: `${site.seed.url}/${locale.toLowerCase()}/jobs/${jobId}-${slug(opening.template.titles['en-GB'])}`,
          expires_on: opening.closesOn,
        }));
      },
    });
    steps.push({
      at: endsAt,
      run: () => changeStatus(commands, 'distribution', distributionId, withdrawn ? 'Withdrawn' : 'Expired'),
    });
    opening.distributions.push({ locale, id: () => distributionId, endsAt });
  }
  if (opening.closedAt) {
    const jobId = opening.id;
    steps.push({ at: opening.closedAt, run: () => changeStatus(commands, 'job', jobId(), 'Closed') });
  }
  return steps;
}
