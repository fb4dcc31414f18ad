import request from 'supertest';
import { addMember, createWorkspace, registerCounterparty } from '../../src/commands/clm/handlers';
import { createPage, type PageInput } from '../../src/commands/cms/handlers';
import { addCompany, addContact as addCrmContact, captureLead } from '../../src/commands/crm/handlers';
import { addBrand, addDepartment, addOrganization, joinEmployee } from '../../src/commands/hrm/handlers';
import { addCandidate, openJob, receiveApplication } from '../../src/commands/hrm/recruitment-handlers';
import { createCourse, registerLearner } from '../../src/commands/lms/handlers';
import { addContact as addMailContact, syncMessage } from '../../src/commands/mail/handlers';
import { createSeedContext } from '../../src/seed/context';
import { company, contact, lead } from './crm-fixtures';
import { admin, serverOf, WORKSPACE, type Running } from './erasure-model-suite';

/**
 * The writes of the erasure model that carry personal data, one per kind of data subject of every
 * module that declares some: through the module's HTTP write where it has one (a service request, a
 * form submission, an enrolment), else through the command the demo data and the integrations use.
 * Each gives the model a `Person`: the subject and the values of it the suite was given.
 */

/** A subject and the values of it the suite was given. */
export interface Person {
  subject: string;
  module: string;
  values: string[];
  erased: boolean;
  /** Its record on its module's API, and its history on the audit API. */
  record: string;
  history: string;
}

/** Distinctive words, one per value: found only where that value went. */
export const word = (kind: string, n: number) => `Zq${kind}${String.fromCharCode(97 + (n % 26))}${n}xv`;
const lower = (text: string) => text.toLowerCase();

const MAILBOX = 'sales@model.example';

/** What the writes need to exist first: an organisation, a company, a course, a form page, a workspace. */
export interface Fixtures {
  job: number;
  course: number;
  formPage: number;
}

const commandsOf = (run: Running, tag: string) =>
  createSeedContext(run.suite.eventStore, run.suite.ids, tag).commands;

const formPage = (overrides: Partial<PageInput>): PageInput => ({
  parent_id: null,
  page_type: 'HomePage',
  locale: 'en',
  translation_key: '6f1c2a4e-0b1d-4c1e-9a8b-0c2d3e4f5a6b',
  title: 'Home',
  slug: 'home',
  url_path: '/en/',
  seo_title: 'Model',
  search_description: 'The model site.',
  body: [],
  form_fields: [],
  owner: 'Laura Kaiser',
  status: 'Live',
  first_published_at: '2025-01-10T09:00:00Z',
  last_published_at: '2026-03-02T09:00:00Z',
  go_live_at: null,
  expire_at: null,
  ...overrides,
});

export async function writeFixtures(run: Running, tag: string): Promise<Fixtures> {
  const commands = commandsOf(run, `fixtures${tag}`);
  await addOrganization(commands, {
    default_currency: 'GBP',
    industry: 'Home energy technology',
    name: 'Model Ltd',
    legal_name: 'Model Ltd',
    country: 'GB',
    website: 'https://www.model.example',
    headquarters_city: 'Leeds',
    default_language: 'en-GB',
    timezone: 'Europe/London',
    date_format: 'dd/mm/yyyy',
  });
  await addDepartment(commands, {
    name: 'Engineering',
    code: 'ENG',
    parent_department_id: null,
    cost_center: 'CC-ENG',
  });
  const { id: brand } = await addBrand(commands, {
    organization_id: 1,
    name: 'Model',
    domain: 'model.example',
    primary_color: '#0B5D4B',
    secondary_color: '#F2B134',
    logo_url: 'https://cdn.model.example/logo.svg',
    tagline: null,
  });
  const { id: manager } = await joinEmployee(commands, {
    first_name: 'Hanna',
    last_name: 'Vogel',
    company_email: 'hanna.vogel@model.example',
    designation: 'Engineering Manager',
    department_id: 1,
    organization_id: 1,
    reports_to: null,
    employment_type: 'Full-time',
    work_location: 'Leeds',
    country: 'GB',
    date_of_joining: '2019-01-07',
  });
  const { id: job } = await openJob(commands, {
    title: 'Backend Engineer',
    designation: 'Backend Engineer',
    department_id: 1,
    organization_id: 1,
    brand_id: brand,
    team_id: null,
    hiring_manager_id: manager,
    recruiter_id: null,
    location: 'Leeds',
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
  });
  await addCompany(commands, company({}));
  const { id: course } = await createCourse(commands, {
    title: 'SQL for Analysts',
    slug: 'sql-for-analysts',
    short_introduction: 'Query data with confidence.',
    description: 'Learn SQL step by step.',
    category: 'Data & Analytics',
    tags: ['data'],
    level: 'Beginner',
    language: 'en',
    instructors: ['Owen Gallagher'],
    paid_course: false,
    price: 0,
    currency: 'EUR',
    enable_certification: true,
    status: 'Published',
    published_on: '2026-03-02',
  });
  const { id: home } = await createPage(commands, formPage({}));
  const { id: page } = await createPage(
    commands,
    formPage({
      parent_id: home,
      page_type: 'FormPage',
      title: 'Contact us',
      slug: 'contact-us',
      url_path: '/en/contact-us/',
      form_fields: [
        { name: 'name', label: 'Name', field_type: 'singleline', required: true, choices: [], help_text: '' },
        { name: 'email', label: 'Email', field_type: 'email', required: true, choices: [], help_text: '' },
      ],
    }),
  );
  await createWorkspace(commands, {
    workspace_id: WORKSPACE,
    name: 'Model',
    legal_name: 'Model GmbH',
    country: 'DE',
    currency: 'EUR',
  });
  return { job, course, formPage: page };
}

const person = (
  module: string,
  resource: string,
  entity: string,
  id: number | string,
  values: string[],
): Person => ({
  subject: `${module}.${entity}-${id}`,
  module,
  values,
  erased: false,
  record: `/api/v1/${resource}/${id}`,
  history: `/api/v1/history/${module}/${resource}/${id}`,
});

/** The writes that bring a new data subject, by the kind of subject. */
export const newSubjects = {
  async employee(run: Running, n: number) {
    const [first, last] = [word('f', n), word('l', n)];
    const email = `${lower(first)}.${lower(last)}@model.example`;
    const { id } = await joinEmployee(commandsOf(run, `j${n}`), {
      first_name: first,
      last_name: last,
      company_email: email,
      designation: 'Engineer',
      department_id: 1,
      organization_id: 1,
      reports_to: null,
      employment_type: 'Full-time',
      work_location: 'Leeds',
      country: 'GB',
      date_of_joining: '2020-01-06',
    });
    return person('hrm', 'employees', 'employee', id, [first, last, email]);
  },

  async candidate(run: Running, n: number, fixtures: Fixtures) {
    const [first, last, headline] = [word('cf', n), word('cl', n), word('ch', n)];
    const email = `${lower(first)}@cand.example`;
    const { id } = await addCandidate(commandsOf(run, `c${n}`), {
      first_name: first,
      last_name: last,
      email,
      location: 'Leeds',
      country: 'GB',
      headline,
      current_employer: null,
      source: 'Career Site',
      skills: ['TypeScript'],
      years_of_experience: 3,
      education: [],
      languages: [],
      extraction: { source: 'cv_pdf', confidence: 0.9 },
    });
    // Their application copies their name (`candidate_name`).
    await receiveApplication(commandsOf(run, `a${n}`), {
      candidate_id: id,
      job_id: fixtures.job,
      source: 'Career Site',
      job_distribution_id: null,
    });
    return person('hrm', 'candidates', 'candidate', id, [first, last, email, headline]);
  },

  async request(run: Running, n: number) {
    const requester = word('r', n);
    const answer = await request(serverOf(run, 'esm'))
      .post('/api/v1/requests')
      .set(admin)
      .send({
        title: 'Laptop',
        status: 'Open',
        priority: 'Low',
        form_data: JSON.stringify({ name: requester }),
      });
    expect(answer.status).toBe(201);
    return person('esm', 'requests', 'request', answer.body.id as number, [requester]);
  },

  async crmContact(run: Running, n: number) {
    const [first, last] = [word('kf', n), word('kl', n)];
    const email = `${lower(last)}@contact.example`;
    const { id } = await addCrmContact(
      commandsOf(run, `k${n}`),
      contact({ first_name: first, last_name: last, email, mobile: `+44 7700 ${n}` }),
    );
    return person('crm', 'contacts', 'contact', id, [first, last, email]);
  },

  async crmLead(run: Running, n: number) {
    const [first, last] = [word('ef', n), word('el', n)];
    const email = `${lower(first)}@lead.example`;
    const { id } = await captureLead(
      commandsOf(run, `e${n}`),
      lead({ first_name: first, last_name: last, email }),
    );
    return person('crm', 'leads', 'lead', id, [first, last, email]);
  },

  async learner(run: Running, n: number) {
    const [name, username] = [`${word('nf', n)} ${word('nl', n)}`, word('nu', n)];
    const email = `${lower(username)}@learn.example`;
    const { id } = await registerLearner(commandsOf(run, `n${n}`), {
      full_name: name,
      username,
      email,
      country: 'NL',
      company: 'Northwind',
      job_title: 'Analyst',
      xp: 10,
      status: 'Active',
    });
    return person('lms', 'learners', 'learner', id, [name, username, email]);
  },

  async submission(run: Running, n: number, fixtures: Fixtures) {
    const [name, email] = [word('s', n), `${lower(word('se', n))}@visitor.example`];
    const answer = await request(serverOf(run, 'cms'))
      .post('/api/v1/submissions')
      .set(admin)
      .send({ page_id: fixtures.formPage, form_data: { name, email } });
    expect(answer.status).toBe(201);
    return person('cms', 'submissions', 'submission', answer.body.id as number, [name, email]);
  },

  async mailContact(run: Running, n: number) {
    const [given, surname] = [word('mg', n), word('ms', n)];
    const email = `${lower(surname)}@corresp.example`;
    const { id } = await addMailContact(commandsOf(run, `m${n}`), {
      mailbox: MAILBOX,
      given_name: given,
      surname,
      emails: [{ email, type: 'work' }],
      phone_numbers: [],
      company_name: 'Nordlicht',
      job_title: null,
      notes: null,
      source: 'address_book',
    });
    return person('mail', 'contacts', 'contact', id, [given, surname, email]);
  },

  async member(run: Running, n: number) {
    const [name, email] = [word('wn', n), `${lower(word('we', n))}@member.example`];
    const memberId = `m-model-${n}`;
    await addMember(commandsOf(run, `w${n}`), {
      member_id: memberId,
      workspace_id: WORKSPACE,
      name,
      email,
      job_title: 'Counsel',
      role: 'editor',
    });
    return person('clm', 'members', 'member', memberId, [name, email]);
  },

  async counterparty(run: Running, n: number) {
    const [name, email] = [word('pn', n), `${lower(word('pe', n))}@party.example`];
    const { id } = await registerCounterparty(commandsOf(run, `p${n}`), {
      workspace_id: WORKSPACE,
      legal_name: `Party ${n} GmbH`,
      trading_name: null,
      registration_number: `HRB ${n}`,
      vat_number: 'DE123456789',
      country: 'DE',
      address: { street: 'Speicherstraße 12', postal_code: '20457', city: 'Hamburg', country: 'DE' },
      industry: 'Cloud hosting',
      contacts: [{ name, email, role: 'CEO', phone: null, is_signatory: true }],
    });
    return person('clm', 'counterparties', 'counterparty', id, [name, email]);
  },
} satisfies Record<string, (run: Running, n: number, fixtures: Fixtures) => Promise<Person>>;

export type SubjectKind = keyof typeof newSubjects;
export const SUBJECT_KINDS = Object.keys(newSubjects) as SubjectKind[];

/**
 * A message a mail contact sent to the mailbox: its sender's name and address, body and snippet are
 * the contact's data (added to their values); the subject line is the message's, and holds none of it.
 */
export async function mailFrom(run: Running, n: number, sender: Person): Promise<void> {
  const [given, surname, email] = sender.values as [string, string, string];
  const id = Number(sender.subject.split('-').at(-1));
  const body = `${word('mb', n)} about the renewal`;
  await syncMessage(
    commandsOf(run, `mm${n}`),
    {
      mailbox: MAILBOX,
      thread_id: null,
      in_reply_to: null,
      internet_message_id: `<m${n}@corresp.example>`,
      subject: 'Renewal',
      from: { name: `${given} ${surname}`, email },
      to: [{ name: 'Model Sales', email: MAILBOX }],
      cc: [],
      bcc: [],
      date: '2026-10-28T09:00:00Z',
      snippet: body,
      body,
      label_ids: [],
      unread: true,
      starred: false,
      attachments: [],
    },
    (mailbox, address) => (mailbox === MAILBOX && address.toLowerCase() === email ? id : undefined),
  );
  sender.values.push(body);
}
