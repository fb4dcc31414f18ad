import { isoDate } from '../../clock';
import { changeEmployeeStatus, joinEmployee } from '../../commands/hrm/handlers';
import type { EmployeeStatus, EmploymentType } from '../../events/hrm';
import type { SeedContext } from '../context';
import {
  CITIES,
  DEPARTMENTS,
  EMPLOYMENT_WEIGHTS,
  FIRST_NAMES,
  LAST_NAMES,
  ORGANIZATIONS,
  type DepartmentSeed,
  type OrganizationSeed,
} from '../hrm-data';
import type { SeededRandom } from '../random';
import {
  ascii,
  between,
  dayAfter,
  HOUR,
  onDate,
  plus,
  sample,
  SEED_START,
  weekdayFrom,
  weightedPick,
  type Person,
  type Step,
  type Structure,
} from './plan';
import { structureId } from './structure';

/** Hiring windows of each level, for dates of joining. */
const JOINED: Record<Person['kind'], [string, string]> = {
  head: ['2014-01-06', '2020-12-31'],
  manager: ['2016-01-04', '2023-12-31'],
  ic: ['2017-01-02', '2026-04-24'],
};

const ORGANIZATION_BY_KEY = new Map(ORGANIZATIONS.map((organization) => [organization.key, organization]));

function organizationOf(key: string): OrganizationSeed {
  const organization = ORGANIZATION_BY_KEY.get(key);
  if (!organization) throw new Error(`Unknown organisation ${key} in the HR demo data`);
  return organization;
}

export interface NewEmployee {
  department: DepartmentSeed;
  organization: OrganizationSeed;
  designation: string;
  reports_to: number | null;
  employment_type: EmploymentType;
  date_of_joining: string;
  work_location: string;
  /** Given when the person is a hired candidate. */
  name?: { first_name: string; last_name: string };
}

/** Generates names and work e-mail addresses that stay unique across the company. */
export function employeeFactory(seed: SeedContext, structure: Structure) {
  const emails = new Set<string>();
  return async (employee: NewEmployee): Promise<number> => {
    const { random, commands } = seed;
    const country = employee.organization.country;
    const first_name = employee.name?.first_name ?? random.pick(FIRST_NAMES[country]);
    const last_name = employee.name?.last_name ?? random.pick(LAST_NAMES[country]);
    const base = `${ascii(first_name)}.${ascii(last_name)}`;
    let local = base;
    for (let suffix = 2; emails.has(local); suffix++) local = `${base}${suffix}`;
    emails.add(local);
    const { id } = await joinEmployee(commands, {
      first_name,
      last_name,
      company_email: `${local}@halcyon.example`,
      designation: employee.designation,
      department_id: structureId(structure.departments, employee.department.key),
      organization_id: structureId(structure.organizations, employee.organization.key),
      reports_to: employee.reports_to,
      employment_type: employee.employment_type,
      work_location: employee.work_location,
      country,
      date_of_joining: employee.date_of_joining,
    });
    return id;
  };
}

function workLocation(random: SeededRandom, department: DepartmentSeed, organization: OrganizationSeed) {
  const remote = department.key === 'ops' || random.chance(0.3);
  return remote ? random.pick(CITIES[organization.country]) : organization.headquarters_city;
}

/** An individual contributor's title: every role once, then the common ones more often. */
function roleOf(random: SeededRandom, department: DepartmentSeed, index: number): string {
  const { roles } = department;
  if (index < roles.length) return roles[index] as string;
  return roles[Math.min(roles.length - 1, Math.floor(random.float() ** 1.7 * roles.length))] as string;
}

/**
 * The staff imported when the HR system goes live: a CEO, a head per department reporting to the CEO,
 * team managers for the larger departments, and individual contributors reporting to a manager in
 * their own country where there is one. The import runs level by level; the joins of one level are
 * independent of each other and go in together.
 */
export async function seedEmployees(seed: SeedContext, structure: Structure): Promise<Person[]> {
  const { random } = seed;
  const hire = employeeFactory(seed, structure);
  seed.at(plus(SEED_START, HOUR));
  type Planned = Omit<Person, 'id' | 'reports_to'> & {
    manager: Planned | null;
    designation: string;
    person?: Person;
  };
  const levels: Planned[][] = [[], [], [], []];

  function plan(
    kind: Person['kind'],
    department: DepartmentSeed,
    organization: OrganizationSeed,
    manager: Planned | null,
    designation: string,
  ): Planned {
    const [from, to] = JOINED[kind];
    const date_of_joining = weekdayFrom(isoDate(between(random, new Date(from), new Date(to))));
    const planned = { department, organization, kind, manager, designation, date_of_joining, stable: true };
    const level = manager === null ? 0 : kind === 'head' ? 1 : kind === 'manager' ? 2 : 3;
    (levels[level] as Planned[]).push(planned);
    return planned;
  }

  let ceo: Planned | null = null;
  for (const department of DEPARTMENTS) {
    if (department.disabled) continue;
    const weights = Object.entries(department.organizations);
    const home = organizationOf(weights.reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0]);
    const anywhere = () => organizationOf(weightedPick(random, weights, ([, weight]) => weight)[0]);
    const head = plan('head', department, home, ceo, department.head);
    ceo ??= head;
    const managerCount = department.headcount > 9 ? Math.round((department.headcount - 1) / 9) : 0;
    const managers: Planned[] = [];
    for (let index = 0; index < managerCount; index++) {
      managers.push(plan('manager', department, index === 0 ? home : anywhere(), head, department.manager));
    }
    for (let index = 0; index < department.headcount - 1 - managerCount; index++) {
      const organization = anywhere();
      const manager =
        managers.find((candidate) => candidate.organization === organization) ??
        managers[index % Math.max(managers.length, 1)] ??
        head;
      plan('ic', department, organization, manager, roleOf(random, department, index));
    }
  }

  const people: Person[] = [];
  for (const level of levels) {
    const joined = await Promise.all(
      level.map((planned) => {
        const reports_to = planned.manager?.person?.id ?? null;
        return hire({
          department: planned.department,
          organization: planned.organization,
          designation: planned.designation,
          reports_to,
          employment_type: planned.kind === 'ic' ? random.weighted(EMPLOYMENT_WEIGHTS) : 'Full-time',
          date_of_joining: planned.date_of_joining,
          work_location: workLocation(random, planned.department, planned.organization),
        }).then((id) => ({ planned, id, reports_to }));
      }),
    );
    for (const { planned, id, reports_to } of joined) {
      const { department, organization, kind, date_of_joining } = planned;
      planned.person = { id, department, organization, kind, reports_to, date_of_joining, stable: true };
      people.push(planned.person);
    }
  }
  return people.sort((a, b) => a.id - b.id);
}

interface Departure {
  status: Exclude<EmployeeStatus, 'Active'>;
  reasons: readonly string[];
  /** Days until the employee is Active again, if they come back. */
  back?: readonly [number, number];
}

const DEPARTURES: readonly Departure[] = [
  { status: 'Left', reasons: ['Resigned: joined a competitor', 'Relocated abroad'] },
  { status: 'Left', reasons: ['End of fixed-term contract', 'Retired'] },
  { status: 'Left', reasons: ['Resigned: career change'] },
  { status: 'Left', reasons: ['Mutual agreement'] },
  { status: 'Suspended', reasons: ['Pending investigation of a safety incident'], back: [14, 21] },
  { status: 'Suspended', reasons: ['Pending disciplinary hearing'] },
  { status: 'Inactive', reasons: ['Sabbatical'] },
  { status: 'Inactive', reasons: ['Long-term secondment to a partner'] },
];

/**
 * A few individual contributors leave, are suspended or go inactive during the season; they take no
 * leave and record no attendance in the demo (the rest of the staff is `stable`).
 */
export function employeeChanges(seed: SeedContext, people: Person[]): Step[] {
  const { random, commands } = seed;
  const eligible = people.filter(
    (person) => person.kind === 'ic' && !['exe', 'ta'].includes(person.department.key),
  );
  const steps: Step[] = [];
  for (const [index, person] of sample(random, eligible, DEPARTURES.length).entries()) {
    const departure = DEPARTURES[index] as Departure;
    person.stable = false;
    const date = weekdayFrom(isoDate(between(random, new Date('2026-06-15'), new Date('2026-10-30'))));
    const reason = random.pick(departure.reasons);
    if (departure.status === 'Left') {
      steps.push({
        at: onDate(dayAfter(date, 1), 8),
        run: () =>
          changeEmployeeStatus(commands, person.id, { status: 'Left', relieving_date: date, reason }),
      });
      continue;
    }
    const status = departure.status;
    steps.push({
      at: onDate(date, 9),
      run: () => changeEmployeeStatus(commands, person.id, { status, relieving_date: null, reason }),
    });
    if (departure.back) {
      const back = onDate(dayAfter(date, random.int(...departure.back)), 9);
      steps.push({
        at: back,
        run: () =>
          changeEmployeeStatus(commands, person.id, {
            status: 'Active',
            relieving_date: null,
            reason: 'Cleared',
          }),
      });
    }
  }
  return steps;
}
