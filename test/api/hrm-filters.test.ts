import request from 'supertest';
import { addTimeOff, openHrm, type HrmHarness } from '../support/hrm-harness';
import { expectEnvelope } from './spec';

type Row = Record<string, unknown> & { id: number };

let h: HrmHarness;

beforeAll(async () => {
  h = await openHrm();
  await addTimeOff(h);
});
afterAll(() => h.close());

const list = (path: string, query: Record<string, string | number> = {}) =>
  request(h.app).get(`/api/v1/${path}`).query(query);

const ids = async (path: string, query: Record<string, string | number>) => {
  const res = await list(path, query).expect(200);
  expect(res.body.meta.total).toBe(res.body.data.length);
  return (res.body.data as Row[]).map((row) => row.id);
};

/** The 422 envelope of a bad read parameter, naming each parameter in `details.issues`. */
function expectInvalid(res: request.Response, ...locs: (string | number)[][]): void {
  expectEnvelope(res, 422, 'validation_error');
  const issues = res.body.error.details.issues as { loc: (string | number)[]; msg: string }[];
  expect(issues.map((issue) => issue.loc)).toEqual(locs);
  for (const [, name] of locs) expect(res.body.error.message).toContain(String(name));
}

describe('filters', () => {
  it('finds employees by department, organisation, manager, country and employment type', async () => {
    const { engineering, people, de, ada, grace, alan, leaver } = h.fixtures;
    expect(await ids('employees', { department_id: engineering })).toEqual([ada, grace, leaver]);
    expect(await ids('employees', { department_id: people })).toEqual([alan]);
    expect(await ids('employees', { organization_id: de })).toEqual([alan]);
    expect(await ids('employees', { reports_to: ada })).toEqual([grace, alan, leaver]);
    expect(await ids('employees', { country: 'de' })).toEqual([alan]);
    expect(await ids('employees', { employment_type: 'full-time', status: 'Active' })).toEqual([
      ada,
      grace,
      alan,
    ]);
  });

  it('finds leave by employee, department, type and dates that overlap a range', async () => {
    const { grace, ada, engineering } = h.fixtures;
    const leave = (await list('leave').expect(200)).body.data as Row[];
    const byType = (type: string) => (leave.find((row) => row.leave_type === type) as Row).id;
    expect(await ids('leave', { employee_id: grace })).toEqual([
      byType('Annual Leave'),
      byType('Sick Leave'),
    ]);
    expect(await ids('leave', { employee_id: ada })).toEqual([byType('Casual Leave')]);
    expect(await ids('leave', { department_id: engineering })).toHaveLength(3);
    expect(await ids('leave', { leave_type: 'SICK LEAVE' })).toEqual([byType('Sick Leave')]);
    expect(await ids('leave', { from: '2026-11-25', to: '2026-11-30' })).toEqual([byType('Annual Leave')]);
    expect(await ids('leave', { from: '2026-11-16', to: '2026-11-16' })).toEqual([byType('Sick Leave')]);
    expect(await ids('leave', { from: '2026-12-01' })).toEqual([byType('Casual Leave')]);
    expect(await ids('leave', { to: '2026-11-20' })).toEqual([byType('Sick Leave')]);
  });

  it('finds attendance by employee, department and a range of dates', async () => {
    const { grace, alan, people } = h.fixtures;
    expect(await ids('attendance', { employee_id: grace })).toHaveLength(3);
    expect(await ids('attendance', { department_id: people })).toHaveLength(1);
    const days = async (query: Record<string, string | number>) =>
      ((await list('attendance', query).expect(200)).body.data as Row[]).map((row) => row.attendance_date);
    expect(await days({ from: '2026-11-18', to: '2026-11-18' })).toEqual(['2026-11-18']);
    expect(await days({ from: '2026-11-19' })).toEqual(['2026-11-19', '2026-11-19']);
    expect(await days({ to: '2026-11-17', employee_id: grace })).toEqual(['2026-11-16']);
    expect(await days({ status: 'on leave' })).toEqual(['2026-11-16']);
    expect(await ids('attendance', { employee_id: alan, status: 'Present' })).toHaveLength(1);
  });

  it('finds jobs by organisation, brand, team, department, country, type and remote policy', async () => {
    const { openJob, closedJob, de, warmwerk, team, engineering } = h.fixtures;
    expect(await ids('jobs', { status: 'open' })).toEqual([openJob]);
    expect(await ids('jobs', { organization_id: de })).toEqual([closedJob]);
    expect(await ids('jobs', { brand_id: warmwerk })).toEqual([closedJob]);
    expect(await ids('jobs', { team_id: team })).toEqual([openJob]);
    expect(await ids('jobs', { department_id: engineering })).toEqual([openJob, closedJob]);
    expect(await ids('jobs', { country: 'GB', employment_type: 'Full-time' })).toEqual([openJob]);
    expect(await ids('jobs', { remote_policy: 'on-site' })).toEqual([closedJob]);
  });

  it('finds candidates by skill, country, source and minimum experience', async () => {
    const { marta, jonas } = h.fixtures;
    expect(await ids('candidates', { q: 'kafka' })).toEqual([marta, jonas]);
    expect(await ids('candidates', { country: 'DE' })).toEqual([jonas]);
    expect(await ids('candidates', { min_experience: 5 })).toEqual([jonas]);
    expect(await ids('candidates', { source: 'career site' })).toEqual([marta, jonas]);
  });

  it('finds applications by job, candidate, stage and source', async () => {
    const { openJob, closedJob, marta, martaApplication, jonasApplication } = h.fixtures;
    expect(await ids('applications', { job_id: openJob })).toEqual([martaApplication, jonasApplication]);
    expect(await ids('applications', { job_id: closedJob })).toEqual([]);
    expect(await ids('applications', { candidate_id: marta })).toEqual([martaApplication]);
    expect(await ids('applications', { stage: 'SCREENING' })).toEqual([jonasApplication]);
    expect(await ids('applications', { status: 'open', source: 'Career Site' })).toEqual([martaApplication]);
  });

  it('finds organisations, brands, career sites and teams by their owners and scope', async () => {
    const { uk, de, halcyon, warmwerk, careers, draftSite, team, engineering, people } = h.fixtures;
    expect(await ids('organizations', { country: 'gb' })).toEqual([uk]);
    expect(await ids('brands', { organization_id: de })).toEqual([warmwerk]);
    expect(await ids('career-sites', { brand_id: halcyon })).toEqual([careers, draftSite]);
    expect(await ids('career-sites', { organization_id: uk, status: 'Published' })).toEqual([careers]);
    expect(await ids('organization-teams', { department_id: engineering, country: 'GB' })).toEqual([team]);
    expect(await ids('organization-teams', { department_id: people })).toEqual([]);
    expect(await ids('organization-teams', { organization_id: uk })).toEqual([team]);
    expect(await ids('departments', { parent_department_id: engineering })).toEqual([]);
  });

  it('finds job distributions by job, career site, brand and locale in any letter case', async () => {
    const { openJob, careers, halcyon, englishPlacement, germanPlacement } = h.fixtures;
    expect(await ids('job-distributions', { job_id: openJob })).toEqual([englishPlacement, germanPlacement]);
    expect(await ids('job-distributions', { career_site_id: careers, status: 'live' })).toEqual([
      englishPlacement,
    ]);
    expect(await ids('job-distributions', { brand_id: halcyon, locale: 'DE-de' })).toEqual([germanPlacement]);
  });

  it.each([
    ['employees', { department_id: 'abc' }, 'department_id'],
    ['leave', { from: '2026-02-30' }, 'from'],
    ['leave', { to: 'tomorrow' }, 'to'],
    ['attendance', { employee_id: '1.5' }, 'employee_id'],
    ['jobs', { country: 'GBR' }, 'country'],
    ['candidates', { min_experience: 'lots' }, 'min_experience'],
    ['applications', { stage: 'Onsite' }, 'stage'],
    ['job-distributions', { locale: 'german' }, 'locale'],
  ])('refuses a bad %s filter %j with a 422 envelope naming it', async (path, query, name) => {
    expectInvalid(await list(path, query), ['query', name]);
  });

  it('reports every bad parameter at once', async () => {
    expectInvalid(
      await list('leave', { limit: 0, status: 'Pending', from: 'x' }),
      ['query', 'limit'],
      ['query', 'status'],
      ['query', 'from'],
    );
  });
});

describe('records', () => {
  it('shows an approved leave with its approver and time, and counts working days', async () => {
    const res = await list('leave', { status: 'Approved' }).expect(200);
    expect(res.body.data[0]).toMatchObject({
      employee_name: 'Grace Hopper',
      leave_type: 'Sick Leave',
      total_days: 1,
      leave_approver_id: h.fixtures.ada,
      approved_by: h.fixtures.ada,
      approved_on: '2026-11-13T09:00:00Z',
      posting_date: '2026-11-13',
    });
    const annual = (await list('leave', { leave_type: 'Annual Leave' }).expect(200)).body.data[0];
    expect(annual).toMatchObject({ status: 'Open', total_days: 5, approved_by: null, approved_on: null });
  });

  it('shows a half-day leave and a rejection by another approver', async () => {
    const res = await list('leave', { status: 'Rejected' }).expect(200);
    expect(res.body.data[0]).toMatchObject({
      leave_type: 'Casual Leave',
      half_day: true,
      half_day_date: '2026-12-07',
      total_days: 0.5,
      leave_approver_id: null,
      rejected_by: h.fixtures.alan,
    });
  });

  it('shows attendance with its hours', async () => {
    const res = await list('attendance', { status: 'Present', employee_id: h.fixtures.grace }).expect(200);
    expect(res.body.data[0]).toMatchObject({ working_hours: 8.5, in_time: '2026-11-18T08:30:00Z' });
  });

  it('shows a candidate with the fields extracted from the CV', async () => {
    const res = await request(h.app).get(`/api/v1/candidates/${h.fixtures.jonas}`).expect(200);
    expect(res.body).toMatchObject({
      full_name: 'Jonas Keller',
      skills: ['TypeScript', 'PostgreSQL', 'Kafka'],
      years_of_experience: 9,
      education: [expect.objectContaining({ degree: 'BSc', graduation_year: 2019 })],
      languages: [{ language: 'en', proficiency: 'C1' }],
      extraction: { source: 'cv_pdf', confidence: 0.91, extracted_on: '2026-11-02T08:00:00Z' },
    });
  });

  it('shows an organisation with its locale defaults and a team with its scope', async () => {
    const org = await request(h.app).get(`/api/v1/organizations/${h.fixtures.de}`).expect(200);
    expect(org.body).toMatchObject({
      default_language: 'de-DE',
      default_currency: 'EUR',
      timezone: 'Europe/Berlin',
      date_format: 'dd.mm.yyyy',
    });
    const team = await request(h.app).get(`/api/v1/organization-teams/${h.fixtures.team}`).expect(200);
    expect(team.body).toMatchObject({
      country: 'GB',
      department_id: h.fixtures.engineering,
      lead_employee_id: h.fixtures.alan,
      member_ids: [h.fixtures.grace],
    });
  });

  it('shows an employee who left with the relieving date, and the end of a placement', async () => {
    const leaver = await request(h.app).get(`/api/v1/employees/${h.fixtures.leaver}`).expect(200);
    expect(leaver.body).toMatchObject({
      status: 'Left',
      relieving_date: '2026-10-30',
      employee_number: 'HR-EMP-00004',
    });
    const placement = await request(h.app)
      .get(`/api/v1/job-distributions/${h.fixtures.germanPlacement}`)
      .expect(200);
    expect(placement.body).toMatchObject({
      localized_title: 'Backend-Entwickler Energiedaten (m/w/d)',
      status: 'Withdrawn',
      ended_on: '2026-11-02T08:00:00Z',
    });
  });
});
