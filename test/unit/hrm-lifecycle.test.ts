import { employeeDecider, type JoinEmployee } from '../../src/commands/hrm/employees';
import type { Reference } from '../../src/commands/hrm/lifecycle';
import { careerSiteDecider, departmentDecider, teamDecider } from '../../src/commands/hrm/organisation';
import {
  applicationDecider,
  distributionDecider,
  jobDecider,
  type ApplicationCommand,
} from '../../src/commands/hrm/recruitment';
import type { HrmEventOf } from '../../src/events/hrm';
import { deciderSpec } from '../support/decider-spec';

const at = '2026-11-21T09:30:00Z';
const found = (field: string, entity: string, status: string | null, allowed = ['Active']): Reference => ({
  field,
  entity,
  id: 5,
  status,
  allowed,
});

describe('records with a status table', () => {
  const department = {
    id: 1,
    name: 'Engineering',
    code: 'ENG',
    parent_department_id: null,
    cost_center: 'CC-ENG',
  };
  const added: HrmEventOf<'DepartmentAdded'> = { type: 'DepartmentAdded', data: department };
  const given = deciderSpec(departmentDecider);

  it('adds a record whose references resolve to usable records', () => {
    given([])
      .when({
        type: 'Add',
        data: department,
        references: [found('parent_department_id', 'department', 'Active')],
      })
      .then([added]);
  });

  it('refuses a reference to a missing record or one in an unusable status', () => {
    const add = (status: string | null) => ({
      type: 'Add' as const,
      data: department,
      references: [found('parent_department_id', 'department', status)],
    });
    given([])
      .when(add(null))
      .thenThrows({ code: 'validation_error', message: 'parent_department_id: department 5 does not exist' });
    given([])
      .when(add('Disabled'))
      .thenThrows({ code: 'validation_error', message: 'parent_department_id: department 5 is Disabled' });
  });

  it('moves the status along its table only', () => {
    given([added])
      .when({ type: 'ChangeStatus', status: 'Disabled', at })
      .then([{ type: 'DepartmentStatusChanged', data: { status: 'Disabled', changed_on: at } }]);
    given([added])
      .when({ type: 'ChangeStatus', status: 'Active', at })
      .thenThrows({ code: 'illegal_transition', details: { from: 'Active', to: 'Active' } });
    given([]).when({ type: 'ChangeStatus', status: 'Disabled', at }).thenThrows({ code: 'not_found' });
    given([added])
      .when({ type: 'Add', data: department, references: [] })
      .thenThrows({ code: 'already_exists' });
  });

  it('checks rules of the record itself', () => {
    const site = {
      id: 1,
      organization_id: 1,
      brand_id: 1,
      name: 'Careers',
      url: 'https://careers.halcyon.example',
      default_locale: 'fr-FR',
      locales: ['en-GB', 'de-DE'],
    };
    deciderSpec(careerSiteDecider)([])
      .when({ type: 'Add', data: site, references: [] })
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^default_locale: /) });
    const team = {
      id: 1,
      organization_id: 1,
      department_id: 1,
      country: 'GB',
      name: 'Engineering Recruiting UK',
      lead_employee_id: 2,
      member_ids: [3, 3],
    };
    deciderSpec(teamDecider)([])
      .when({ type: 'Add', data: team, references: [] })
      .thenThrows({ code: 'validation_error', message: expect.stringMatching(/^member_ids: /) });
  });

  it('refuses a salary band upside down and a closing date before posting', () => {
    const job = {
      id: 1,
      title: 'Data Engineer',
      designation: 'Data Engineer',
      department_id: 1,
      organization_id: 1,
      brand_id: 1,
      team_id: null,
      hiring_manager_id: 2,
      recruiter_id: null,
      location: 'Utrecht',
      country: 'NL',
      employment_type: 'Full-time' as const,
      remote_policy: 'Hybrid' as const,
      vacancies: 1,
      salary_min: 60_000,
      salary_max: 50_000,
      salary_currency: 'EUR',
      salary_period: 'Year' as const,
      description: 'Pipelines.',
      posted_on: '2026-11-02',
      closes_on: '2026-12-31',
    };
    const given = deciderSpec(jobDecider);
    given([])
      .when({ type: 'Add', data: job, references: [] })
      .thenThrows({ message: expect.stringMatching(/^salary_max: /) });
    given([])
      .when({ type: 'Add', data: { ...job, salary_max: 70_000, closes_on: '2026-11-01' }, references: [] })
      .thenThrows({ message: expect.stringMatching(/^closes_on: /) });
  });
});

describe('job distributions', () => {
  const given = deciderSpec(distributionDecider);
  const placement = {
    id: 1,
    job_id: 1,
    career_site_id: 2,
    brand_id: 3,
    locale: 'de-DE',
    localized_title: 'Data Engineer (m/w/d)',
    url: 'https://careers.halcyon.example/de-de/jobs/1',
    published_on: at,
    expires_on: '2026-12-31',
  };
  const site = { brand_id: 3, locales: ['en-GB', 'de-DE'] };

  it('places a job on a site in one of its locales, under its brand', () => {
    given([])
      .when({ type: 'Add', data: placement, references: [], site })
      .then([{ type: 'JobDistributed', data: placement }]);
  });

  it('refuses a locale the site does not publish in, or another brand', () => {
    given([])
      .when({ type: 'Add', data: { ...placement, locale: 'fr-FR' }, references: [], site })
      .thenThrows({ message: expect.stringMatching(/^locale: /) });
    given([])
      .when({ type: 'Add', data: placement, references: [], site: { ...site, brand_id: 4 } })
      .thenThrows({ message: expect.stringMatching(/^brand_id: /) });
  });

  it('refuses a job that is not Open', () => {
    given([])
      .when({ type: 'Add', data: placement, references: [found('job_id', 'job', 'Closed', ['Open'])], site })
      .thenThrows({ message: 'job_id: job 5 is Closed' });
  });
});

describe('employees', () => {
  const given = deciderSpec(employeeDecider);
  const employee = {
    id: 42,
    first_name: 'Grace',
    last_name: 'Hopper',
    company_email: 'grace.hopper@halcyon.example',
    designation: 'Software Engineer',
    department_id: 1,
    organization_id: 1,
    reports_to: 3,
    employment_type: 'Full-time' as const,
    work_location: 'Manchester',
    country: 'GB',
    date_of_joining: '2020-01-06',
  };
  const join: JoinEmployee = { type: 'JoinEmployee', employee, references: [] };
  const joined: HrmEventOf<'EmployeeJoined'> = {
    type: 'EmployeeJoined',
    data: { ...employee, employee_number: 'HR-EMP-00042' },
  };
  const change = (
    status: 'Active' | 'Inactive' | 'Suspended' | 'Left',
    relieving_date: string | null = null,
  ) => ({
    type: 'ChangeEmployeeStatus' as const,
    status,
    at,
    relieving_date,
    reason: null,
  });

  it('joins with an employee number in the HR-EMP series', () => {
    given([]).when(join).then([joined]);
  });

  it('leaves with a relieving date, and only with one', () => {
    given([joined])
      .when(change('Left', '2026-11-20'))
      .then([
        {
          type: 'EmployeeStatusChanged',
          data: { status: 'Left', changed_on: at, relieving_date: '2026-11-20', reason: null },
        },
      ]);
    given([joined]).when(change('Left')).thenThrows({ message: 'relieving_date: is required when leaving' });
    given([joined])
      .when(change('Left', '2019-12-31'))
      .thenThrows({ message: expect.stringMatching(/joining/) });
    given([joined]).when(change('Suspended', '2026-11-20')).thenThrows({ code: 'validation_error' });
  });

  it('never comes back after leaving', () => {
    const left: HrmEventOf<'EmployeeStatusChanged'> = {
      type: 'EmployeeStatusChanged',
      data: { status: 'Left', changed_on: at, relieving_date: '2026-11-20', reason: null },
    };
    given([joined, left]).when(change('Active')).thenThrows({ code: 'illegal_transition' });
  });
});

describe('applications', () => {
  const given = deciderSpec(applicationDecider);
  const application = {
    id: 1,
    candidate_id: 2,
    candidate_name: 'Marta Quintero',
    job_id: 3,
    job_title: 'Data Engineer',
    source: 'Career Site' as const,
    job_distribution_id: null,
    applied_on: at,
  };
  const received: HrmEventOf<'ApplicationReceived'> = { type: 'ApplicationReceived', data: application };
  const advanced = (stage: 'Screening' | 'Interview' | 'Offer'): HrmEventOf<'ApplicationAdvanced'> => ({
    type: 'ApplicationAdvanced',
    data: { stage, advanced_on: at },
  });
  const accept: ApplicationCommand = { type: 'AcceptApplication', at };

  it('moves forward through the stages and is accepted at the offer', () => {
    given([received])
      .when({ type: 'AdvanceApplication', stage: 'Interview', at })
      .then([advanced('Interview')]);
    given([received, advanced('Screening'), advanced('Offer')])
      .when(accept)
      .then([{ type: 'ApplicationAccepted', data: { accepted_on: at } }]);
  });

  it('never moves back a stage, and needs an offer to accept', () => {
    given([received, advanced('Interview')])
      .when({ type: 'AdvanceApplication', stage: 'Screening', at })
      .thenThrows({ code: 'illegal_transition' });
    given([received, advanced('Interview')])
      .when(accept)
      .thenThrows({ code: 'illegal_transition' });
  });

  it('ends with a rejection', () => {
    const rejected: HrmEventOf<'ApplicationRejected'> = {
      type: 'ApplicationRejected',
      data: { rejected_on: at, reason: 'Position filled', candidate_id: 2 },
    };
    given([received, { type: 'ApplicationHeld', data: { held_on: at } }])
      .when({ type: 'RejectApplication', at, reason: 'Position filled' })
      .then([rejected]);
    given([received, rejected])
      .when({ type: 'HoldApplication', at })
      .thenThrows({ code: 'illegal_transition' });
  });

  it('refuses an application to a job that is not Open', () => {
    given([])
      .when({
        type: 'ReceiveApplication',
        application,
        references: [found('job_id', 'job', 'Closed', ['Open'])],
      })
      .thenThrows({ code: 'validation_error', message: 'job_id: job 5 is Closed' });
  });
});
