import type { RequestListener } from 'node:http';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import {
  addBrand,
  addCareerSite,
  addDepartment,
  addOrganization,
  addTeam,
  changeEmployeeStatus,
  changeStatus,
  decideLeave,
  joinEmployee,
  recordAttendance,
  submitLeave,
  type EmployeeInput,
} from '../../src/commands/hrm/handlers';
import {
  actOnApplication,
  addCandidate,
  distributeJob,
  openJob,
  receiveApplication,
  type CandidateInput,
  type JobInput,
} from '../../src/commands/hrm/recruitment-handlers';
import { loadConfig } from '../../src/config';
import type { EventStore } from '../../src/events/event-store';
import { openSuite, startProjecting, type Suite } from '../../src/main';
import { createSeedContext, type SeedContext } from '../../src/seed/context';
import { SERVER_SECRET } from './esm-harness';
import { HALCYON_UK } from './organisations';
import { tempDir } from './temp-dir';

export const TOKEN = 'test-token-0123456789';
export const NOW = new Date('2026-11-21T09:30:00Z');
export const auth = { Authorization: `Bearer ${TOKEN}` };

export interface HrmFixtures {
  uk: number;
  de: number;
  halcyon: number;
  warmwerk: number;
  careers: number;
  draftSite: number;
  engineering: number;
  people: number;
  /** Ada manages everyone; she has no manager herself. */
  ada: number;
  grace: number;
  alan: number;
  /** Left on 2026-10-30. */
  leaver: number;
  team: number;
  openJob: number;
  closedJob: number;
  englishPlacement: number;
  germanPlacement: number;
  marta: number;
  jonas: number;
  martaApplication: number;
  jonasApplication: number;
}

export interface HrmHarness {
  app: RequestListener;
  suite: Suite;
  fixtures: HrmFixtures;
  /** Writes through the module's commands, as the seed does, at a time of the test's choosing. */
  seed: SeedContext;
  /** Waits until the read models show every event appended so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** A new hire's details, from their name and what differs from the usual hire. */
export const employee = (
  overrides: Partial<EmployeeInput> & Pick<EmployeeInput, 'first_name' | 'last_name'>,
) =>
  ({
    company_email: `${overrides.first_name.toLowerCase()}@halcyon.example`,
    designation: 'Software Engineer',
    department_id: 1,
    organization_id: 1,
    reports_to: null,
    employment_type: 'Full-time',
    work_location: 'Manchester',
    country: 'GB',
    date_of_joining: '2020-01-06',
    ...overrides,
  }) satisfies EmployeeInput;

const candidate = (first_name: string, last_name: string, country: string): CandidateInput => ({
  first_name,
  last_name,
  email: `${first_name.toLowerCase()}@mail.example`,
  location: country === 'DE' ? 'Munich' : 'Leeds',
  country,
  headline: 'Backend Engineer',
  current_employer: 'Brightwatt',
  source: 'Career Site',
  skills: ['TypeScript', 'PostgreSQL', 'Kafka'],
  years_of_experience: country === 'DE' ? 9 : 3.5,
  education: [
    { degree: 'BSc', field: 'Computer Science', institution: 'University of Leeds', graduation_year: 2019 },
  ],
  languages: [{ language: 'en', proficiency: 'C1' }],
  extraction: { source: 'cv_pdf', confidence: 0.91 },
});

export async function writeFixtures(seed: SeedContext): Promise<HrmFixtures> {
  const { commands } = seed;
  seed.at(new Date('2026-11-02T08:00:00Z'));
  const locale = { default_currency: 'EUR', industry: 'Home energy technology' };
  const { id: uk } = await addOrganization(commands, HALCYON_UK);
  const { id: de } = await addOrganization(commands, {
    ...locale,
    name: 'Halcyon Deutschland',
    legal_name: 'Halcyon Energie Deutschland GmbH',
    country: 'DE',
    website: 'https://www.halcyon.example/de',
    headquarters_city: 'Munich',
    default_language: 'de-DE',
    timezone: 'Europe/Berlin',
    date_format: 'dd.mm.yyyy',
  });
  const brand = (organization_id: number, name: string, domain: string) =>
    addBrand(commands, {
      organization_id,
      name,
      domain,
      primary_color: '#0B5D4B',
      secondary_color: '#F2B134',
      logo_url: `https://cdn.${domain}/logo.svg`,
      tagline: null,
    });
  const { id: halcyon } = await brand(uk, 'Halcyon', 'halcyon.example');
  const { id: warmwerk } = await brand(de, 'Warmwerk', 'warmwerk.example');
  const site = (name: string, url: string) =>
    addCareerSite(commands, {
      organization_id: uk,
      brand_id: halcyon,
      name,
      url,
      default_locale: 'en-GB',
      locales: ['en-GB', 'de-DE'],
    });
  const { id: careers } = await site('Halcyon Careers', 'https://careers.halcyon.example');
  const { id: draftSite } = await site('Halcyon Graduates', 'https://graduates.halcyon.example');
  await changeStatus(commands, 'careerSite', careers, 'Published');
  const { id: engineering } = await addDepartment(commands, {
    name: 'Engineering',
    code: 'ENG',
    parent_department_id: null,
    cost_center: 'CC-ENG',
  });
  const { id: people } = await addDepartment(commands, {
    name: 'People',
    code: 'PPL',
    parent_department_id: null,
    cost_center: 'CC-PPL',
  });
  const join = (input: Parameters<typeof employee>[0]) => joinEmployee(commands, employee(input));
  const { id: ada } = await join({ first_name: 'Ada', last_name: 'Lovelace', designation: 'VP Engineering' });
  const { id: grace } = await join({ first_name: 'Grace', last_name: 'Hopper', reports_to: ada });
  const { id: alan } = await join({
    first_name: 'Alan',
    last_name: 'Turing',
    designation: 'Talent Acquisition Partner',
    department_id: people,
    organization_id: de,
    reports_to: ada,
    work_location: 'Munich',
    country: 'DE',
    date_of_joining: '2026-11-03',
  });
  const { id: leaver } = await join({ first_name: 'Linus', last_name: 'Leaver', reports_to: ada });
  await changeEmployeeStatus(commands, leaver, {
    status: 'Left',
    relieving_date: '2026-10-30',
    reason: 'Relocated abroad',
  });
  const { id: team } = await addTeam(commands, {
    organization_id: uk,
    department_id: engineering,
    country: 'GB',
    name: 'Engineering Recruiting UK',
    lead_employee_id: alan,
    member_ids: [grace],
  });
  const job = (overrides: Partial<JobInput>) =>
    openJob(commands, {
      title: 'Backend Engineer, Energy Data',
      designation: 'Backend Engineer',
      department_id: engineering,
      organization_id: uk,
      brand_id: halcyon,
      team_id: team,
      hiring_manager_id: ada,
      recruiter_id: alan,
      location: 'Manchester',
      country: 'GB',
      employment_type: 'Full-time',
      remote_policy: 'Hybrid',
      vacancies: 2,
      salary_min: 55_000,
      salary_max: 72_000,
      salary_currency: 'GBP',
      salary_period: 'Year',
      description: 'Model half-hourly smart-meter telemetry.',
      posted_on: '2026-11-02',
      closes_on: '2026-12-31',
      ...overrides,
    });
  const { id: openJobId } = await job({});
  const { id: closedJob } = await job({
    title: 'Heat Pump Installation Engineer',
    designation: 'Heat Pump Installation Engineer',
    organization_id: de,
    brand_id: warmwerk,
    team_id: null,
    location: 'Munich',
    country: 'DE',
    remote_policy: 'On-site',
    salary_currency: 'EUR',
  });
  await changeStatus(commands, 'job', closedJob, 'Closed');
  const placement = (locale: 'en-GB' | 'de-DE', localized_title: string) =>
    distributeJob(commands, {
      job_id: openJobId,
      career_site_id: careers,
      brand_id: halcyon,
      locale,
      localized_title,
      url: `https://careers.halcyon.example/${locale.toLowerCase()}/jobs/${openJobId}`,
      expires_on: '2026-12-31',
    });
  const { id: englishPlacement } = await placement('en-GB', 'Backend Engineer, Energy Data');
  const { id: germanPlacement } = await placement('de-DE', 'Backend-Entwickler Energiedaten (m/w/d)');
  await changeStatus(commands, 'distribution', germanPlacement, 'Withdrawn');
  const { id: marta } = await addCandidate(commands, candidate('Marta', 'Quintero', 'GB'));
  const { id: jonas } = await addCandidate(commands, candidate('Jonas', 'Keller', 'DE'));
  const apply = (candidate_id: number, job_distribution_id: number | null) =>
    receiveApplication(commands, {
      candidate_id,
      job_id: openJobId,
      source: 'Career Site',
      job_distribution_id,
    });
  const { id: martaApplication } = await apply(marta, englishPlacement);
  const { id: jonasApplication } = await apply(jonas, null);
  await actOnApplication(commands, jonasApplication, {
    type: 'AdvanceApplication',
    stage: 'Screening',
    at: '2026-11-03T10:00:00Z',
  });
  return {
    uk,
    de,
    halcyon,
    warmwerk,
    careers,
    draftSite,
    engineering,
    people,
    ada,
    grace,
    alan,
    leaver,
    team,
    openJob: openJobId,
    closedJob,
    englishPlacement,
    germanPlacement,
    marta,
    jonas,
    martaApplication,
    jonasApplication,
  };
}

/** A week of annual leave (Monday 23 to Friday 27 November 2026), as the API takes it. */
export const leaveWeek = (employee_id: number) => ({
  employee_id,
  leave_type: 'Annual Leave' as const,
  from_date: '2026-11-23',
  to_date: '2026-11-27',
  half_day: false,
  half_day_date: null,
  description: null,
});

/** A day at work (Friday 20 November 2026), as the attendance API takes it. */
export const workedDay = (employee_id: number) => ({
  employee_id,
  attendance_date: '2026-11-20',
  status: 'Present' as const,
  in_time: '2026-11-20T08:55:00Z',
  out_time: '2026-11-20T17:25:00Z',
  late_entry: false,
  early_exit: false,
});

/**
 * The HR module on a fresh store in a temp dir, with a fixed clock (2026-11-21T09:30:00Z) and a small
 * organisation written through the module's commands: two organisations and brands, a published and a
 * draft career site, two departments, four employees (one has Left), a recruiting team, an open and a
 * closed job, two placements (one withdrawn), two candidates and their applications.
 */
export async function openHrm(
  options: { token?: string | null; storedEvents?: EventStore } = {},
): Promise<HrmHarness> {
  const { dir, cleanup } = tempDir();
  const token = options.token === undefined ? TOKEN : (options.token ?? undefined);
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  const suite = await openSuite(config, {
    logger: createLogger('silent'),
    clock: { now: () => NOW },
    modules: [hrmModule],
    storedEvents: options.storedEvents,
  });
  await startProjecting(suite);
  const seed = createSeedContext(suite.eventStore, suite.ids, 'fixtures');
  const fixtures = await writeFixtures(seed);
  const settle = async () => suite.runtime.waitFor(await suite.eventStore.headPosition());
  await settle();
  return {
    app: createModuleApp(hrmModule, suite, { apiToken: token, sessionSecret: SERVER_SECRET }),
    suite,
    fixtures,
    seed,
    settle,
    async close() {
      await suite.close();
      cleanup();
    },
  };
}

/**
 * Leave and attendance on top of the fixtures, through the module's commands: Grace's Open week of
 * annual leave (23-27 Nov) and an approved sick day (16 Nov), Ada's half day of casual leave rejected
 * by Alan (7 Dec); attendance for Grace on 16 (On Leave), 18 (Present) and 19 Nov (Work From Home) and
 * for Alan on 19 Nov.
 */
export async function addTimeOff(h: HrmHarness): Promise<void> {
  const { commands } = h.seed;
  const { grace, ada, alan } = h.fixtures;
  h.seed.at(new Date('2026-11-13T09:00:00Z'));
  const leave = (
    employee_id: number,
    leave_type: 'Annual Leave' | 'Sick Leave' | 'Casual Leave',
    from: string,
    to: string,
  ) =>
    submitLeave(commands, {
      employee_id,
      leave_type,
      from_date: from,
      to_date: to,
      half_day: leave_type === 'Casual Leave',
      half_day_date: null,
      description: leave_type === 'Annual Leave' ? 'Family visit in Lisbon' : null,
    });
  await leave(grace, 'Annual Leave', '2026-11-23', '2026-11-27');
  const { id: sick } = await leave(grace, 'Sick Leave', '2026-11-16', '2026-11-16');
  const { id: casual } = await leave(ada, 'Casual Leave', '2026-12-07', '2026-12-07');
  await decideLeave(commands, sick, { status: 'Approved' });
  await decideLeave(commands, casual, { status: 'Rejected', approver_id: alan });
  h.seed.at(new Date('2026-11-20T18:00:00Z'));
  const day = (employee_id: number, date: string, status: 'Present' | 'Work From Home' | 'On Leave') =>
    recordAttendance(commands, {
      employee_id,
      attendance_date: date,
      status,
      in_time: status === 'On Leave' ? null : `${date}T08:30:00Z`,
      out_time: status === 'On Leave' ? null : `${date}T17:00:00Z`,
      late_entry: false,
      early_exit: false,
    });
  await day(grace, '2026-11-16', 'On Leave');
  await day(grace, '2026-11-18', 'Present');
  await day(grace, '2026-11-19', 'Work From Home');
  await day(alan, '2026-11-19', 'Present');
  await h.settle();
}
