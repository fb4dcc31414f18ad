import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EventDefinition } from '../../src/events/catalog';
import { clmEvents, clmStreams } from '../../src/events/clm';
import { cmsCategories, cmsEvents } from '../../src/events/cms';
import { crmCategories, crmEvents } from '../../src/events/crm';
import { streamCategory } from '../../src/events/envelope';
import { esmCategories, esmEvents } from '../../src/events/esm';
import { fpaEvents, fpaStreams } from '../../src/events/fpa';
import { hrmCategories, hrmEvents } from '../../src/events/hrm';
import { lmsCategories, lmsEvents } from '../../src/events/lms';
import { mailCategories, mailEvents } from '../../src/events/mail';
import { marketCategories, marketEvents, marketStreams } from '../../src/events/market';
import { ppmCategories, ppmEvents } from '../../src/events/ppm';

type Schema = z.core.$ZodType;

const modules: Record<string, { events: readonly EventDefinition[]; categories: readonly string[] }> = {
  esm: { events: esmEvents, categories: Object.values(esmCategories) },
  clm: {
    events: clmEvents,
    categories: Object.values(clmStreams).map((stream) => streamCategory(stream('7'))),
  },
  hrm: { events: hrmEvents, categories: Object.values(hrmCategories) },
  market: {
    events: marketEvents,
    categories: [
      ...Object.values(marketCategories),
      streamCategory(marketStreams.thread('7')),
      streamCategory(marketStreams.session('7')),
    ],
  },
  ppm: { events: ppmEvents, categories: Object.values(ppmCategories) },
  crm: { events: crmEvents, categories: Object.values(crmCategories) },
  lms: { events: lmsEvents, categories: Object.values(lmsCategories) },
  cms: { events: cmsEvents, categories: Object.values(cmsCategories) },
  mail: { events: mailEvents, categories: Object.values(mailCategories) },
  fpa: { events: fpaEvents, categories: [streamCategory(fpaStreams.scenario('base'))] },
};

/**
 * Each event that carries personal data: the stream category it is written to -> its subjects'
 * (`a | b`: some fields are a contact's, as the event names one).
 */
const subjects: Record<string, Record<string, `${string} -> ${string}`>> = {
  esm: {
    AgentAdded: 'esm.agent -> esm.agent',
    RequestSubmitted: 'esm.request -> esm.request',
    CommentAdded: 'esm.request -> esm.request',
  },
  clm: {
    MemberAdded: 'clm.member -> clm.member',
    CounterpartyRegistered: 'clm.counterparty -> clm.counterparty',
    SignaturePayloadPrepared: 'clm.contract -> clm.contract',
  },
  hrm: {
    EmployeeJoined: 'hrm.employee -> hrm.employee',
    EmployeeStatusChanged: 'hrm.employee -> hrm.employee',
    LeaveApplicationSubmitted: 'hrm.leave -> hrm.employee',
    LeaveApplicationRejected: 'hrm.leave -> hrm.leave | hrm.employee',
    AttendanceRecorded: 'hrm.attendance -> hrm.employee',
    CandidateAdded: 'hrm.candidate -> hrm.candidate',
    ApplicationReceived: 'hrm.application -> hrm.candidate',
    ApplicationRejected: 'hrm.application -> hrm.application | hrm.candidate',
  },
  market: {},
  ppm: {},
  crm: { ContactAdded: 'crm.contact -> crm.contact', LeadCaptured: 'crm.lead -> crm.lead' },
  lms: { LearnerRegistered: 'lms.learner -> lms.learner', LearnerEnrolled: 'lms.enrolment -> lms.learner' },
  cms: { FormSubmitted: 'cms.submission -> cms.submission' },
  mail: {
    ContactAdded: 'mail.contact -> mail.contact',
    MessageSynced: 'mail.message -> mail.message | mail.contact',
    CalendarEventScheduled: 'mail.event -> mail.event | mail.contact',
  },
  fpa: {},
};

const SUBJECT = /^[a-z]+\.[a-z-]+-\d+$/;

const unwrap = (schema: Schema): Schema =>
  schema instanceof z.ZodNullable || schema instanceof z.ZodOptional ? unwrap(schema.unwrap()) : schema;

/** The schema of the field a path names (`first_name`, `address.city`, `to[].email`, `skills[]`). */
function fieldAt(schema: Schema, path: string): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const step of path.split('.')) {
    const [, name, items] = /^([a-z_][a-z0-9_]*)(\[\])?$/.exec(step) ?? [];
    const object: Schema | undefined = node && unwrap(node);
    node = name && object instanceof z.ZodObject ? (object.shape as Record<string, Schema>)[name] : undefined;
    if (items) {
      const array: Schema | undefined = node && unwrap(node);
      node = array instanceof z.ZodArray ? array.element : undefined;
    }
  }
  return node;
}

/** Data of the schema's shape in which every number is 7 and every string '7'. */
function sample(schema: Schema): unknown {
  const node = unwrap(schema);
  if (node instanceof z.ZodObject)
    return Object.fromEntries(
      Object.entries(node.shape as Record<string, Schema>).map(([k, v]) => [k, sample(v)]),
    );
  if (node instanceof z.ZodArray) return [sample(node.element)];
  if (node instanceof z.ZodEnum) return node.options[0];
  if (node instanceof z.ZodUnion) return sample(node.options[0] as Schema);
  if (node instanceof z.ZodNumber) return 7;
  if (node instanceof z.ZodString) return '7';
  if (node instanceof z.ZodBoolean) return true;
  return {};
}

const personalOf = (events: readonly EventDefinition[]) =>
  events.filter((event) => event.personal.length > 0);
/** The declared paths, those of a declaration with `each` as paths into its array (`to[].email`). */
const declared = (event: EventDefinition) =>
  event.personal.flatMap(({ each, fields }) =>
    fields.map((field) => (each === undefined ? field : `${each}[].${field}`)),
  );

/** The subject a declaration names for an event's data (for each item of its array, the first's). */
function subjectOf(personal: EventDefinition['personal'][number], stream: string, data: unknown): string {
  if (personal.each === undefined) return personal.subject({ stream, data });
  const [item] = (data as Record<string, unknown[]>)[personal.each] ?? [];
  return personal.subject({ stream, data }, item);
}

function definition(module: string, type: string): EventDefinition {
  const found = modules[module]?.events.find((event) => event.type === type);
  if (!found) throw new Error(`${module} has no ${type}`);
  return found;
}

/** The subject of each declared field of an event, given its stream and data. */
function fieldSubjects(module: string, type: string, stream: string, data: Record<string, unknown>) {
  const event = definition(module, type);
  const full = { ...(sample(event.schema) as object), ...data };
  return Object.fromEntries(
    event.personal.flatMap((personal) =>
      declared({ ...event, personal: [personal] }).map((field) => [field, subjectOf(personal, stream, full)]),
    ),
  );
}

describe.each(Object.entries(modules))('%s event definitions', (module, { events, categories }) => {
  it('declare personal data on exactly the events the subject table lists', () => {
    expect(personalOf(events).map((event) => event.type)).toEqual(Object.keys(subjects[module] ?? {}));
  });

  it('declare paths that resolve to fields of their schemas, each once and none of them an id', () => {
    for (const event of personalOf(events)) {
      const fields = declared(event);
      expect({ [event.type]: fields }).toEqual({ [event.type]: [...new Set(fields)] });
      expect({ [event.type]: fields.filter((field) => !fieldAt(event.schema, field)) }).toEqual({
        [event.type]: [],
      });
      expect({ [event.type]: fields.filter((field) => /(^|_|\.)ids?$/.test(field)) }).toEqual({
        [event.type]: [],
      });
    }
  });

  it('name as subject an entity stream of the module, derived from the event alone', () => {
    for (const event of personalOf(events)) {
      const [stream, subject = ''] = (subjects[module]?.[event.type] ?? '').split(' -> ');
      for (const personal of event.personal) {
        const named = subjectOf(personal, `${stream}-7`, sample(event.schema));
        expect(subject.split(' | ').map((category) => `${category}-7`)).toContain(named);
        expect(named).toMatch(SUBJECT);
        expect(named).not.toContain(':');
        expect(categories).toContain(streamCategory(named));
      }
    }
  });
});

describe('expected markings', () => {
  it('keys an employee’s name and work email to the employee', () => {
    expect(fieldSubjects('hrm', 'EmployeeJoined', 'hrm.employee-42', { id: 42 })).toEqual({
      first_name: 'hrm.employee-42',
      last_name: 'hrm.employee-42',
      company_email: 'hrm.employee-42',
    });
  });

  it('keys a leave application’s name and reason to the employee, not the leave stream', () => {
    expect(fieldSubjects('hrm', 'LeaveApplicationSubmitted', 'hrm.leave-9', { employee_id: 42 })).toEqual({
      employee_name: 'hrm.employee-42',
      description: 'hrm.employee-42',
    });
  });

  it('keys the reason a leave was rejected for to the employee whose leave it is', () => {
    expect(fieldSubjects('hrm', 'LeaveApplicationRejected', 'hrm.leave-9', { employee_id: 42 })).toEqual({
      reason: 'hrm.employee-42',
    });
  });

  it('keys a rejection’s reason to the candidate, or to the application when it names none (v1)', () => {
    expect(fieldSubjects('hrm', 'ApplicationRejected', 'hrm.application-3', { candidate_id: 7 })).toEqual({
      reason: 'hrm.candidate-7',
    });
    expect(fieldSubjects('hrm', 'ApplicationRejected', 'hrm.application-3', { candidate_id: null })).toEqual({
      reason: 'hrm.application-3',
    });
  });

  it('keys an application’s candidate name to the candidate', () => {
    expect(fieldSubjects('hrm', 'ApplicationReceived', 'hrm.application-3', { candidate_id: 7 })).toEqual({
      candidate_name: 'hrm.candidate-7',
    });
  });

  it('leaves ids, designations and dates of joining unmarked', () => {
    for (const field of ['id', 'department_id', 'designation', 'date_of_joining'])
      expect(declared(definition('hrm', 'EmployeeJoined'))).not.toContain(field);
  });

  it('marks the CV of a candidate, down to items of its arrays', () => {
    expect(declared(definition('hrm', 'CandidateAdded'))).toEqual(
      expect.arrayContaining(['email', 'headline', 'skills[]', 'education[].institution']),
    );
  });

  it('marks the contact details of CRM contacts and leads', () => {
    expect(declared(definition('crm', 'ContactAdded'))).toEqual(
      expect.arrayContaining(['first_name', 'last_name', 'email', 'phone', 'mobile']),
    );
    expect(declared(definition('crm', 'LeadCaptured'))).toEqual(
      expect.arrayContaining(['first_name', 'last_name', 'email', 'phone']),
    );
  });

  it('keys an enrolment’s learner name to the learner', () => {
    expect(fieldSubjects('lms', 'LearnerEnrolled', 'lms.enrolment-5', { learner_id: 9 })).toEqual({
      learner_name: 'lms.learner-9',
    });
  });

  it('marks a message’s body and every address it carries', () => {
    expect(declared(definition('mail', 'MessageSynced'))).toEqual(
      expect.arrayContaining(['body', 'from.email', 'to[].email', 'cc[].email', 'bcc[].email']),
    );
  });

  it('keys each name and address on a message to its contact, and what a contact sent to the sender', () => {
    const katrin = { name: 'Katrin Becker', email: 'katrin@nordlicht.example', contact_id: 5 };
    const me = { name: 'Northwind Sales', email: 'sales@northwind.example', contact_id: null };
    const subjectsOf = (data: Record<string, unknown>) =>
      fieldSubjects('mail', 'MessageSynced', 'mail.message-3', data);
    expect(subjectsOf({ from: katrin, to: [me] })).toMatchObject({
      'from.email': 'mail.contact-5',
      body: 'mail.contact-5',
      snippet: 'mail.contact-5',
      'to[].email': 'mail.message-3',
      subject: 'mail.message-3',
    });
    expect(subjectsOf({ from: me, to: [katrin] })).toMatchObject({
      'from.email': 'mail.message-3',
      body: 'mail.message-3',
      'to[].email': 'mail.contact-5',
    });
    expect(
      fieldSubjects('mail', 'CalendarEventScheduled', 'mail.event-4', {
        organizer: katrin,
        participants: [{ ...me, status: 'yes' }],
      }),
    ).toMatchObject({
      'organizer.name': 'mail.contact-5',
      'participants[].name': 'mail.event-4',
      title: 'mail.event-4',
    });
  });

  it('keys whatever a form submission holds to the submission', () => {
    expect(fieldSubjects('cms', 'FormSubmitted', 'cms.submission-12', {})).toEqual({
      form_data: 'cms.submission-12',
    });
  });

  it('keys a contract workspace member to their own stream, named by a slug', () => {
    const named = fieldSubjects('clm', 'MemberAdded', 'clm.member-m-acme-owner', {
      member_id: 'm-acme-owner',
    });
    expect(named).toEqual({ name: 'clm.member-m-acme-owner', email: 'clm.member-m-acme-owner' });
  });
});

describe('docs/PERSONAL-DATA.md', () => {
  const docs = readFileSync(join(__dirname, '../../docs/PERSONAL-DATA.md'), 'utf8');
  const sections = new Map(
    docs.split(/^## /m).map((section) => [section.slice(0, section.search(/[\s(]/)), section] as const),
  );

  it.each(Object.keys(modules))('lists every field %s declares, with its subject', (module) => {
    for (const event of personalOf(modules[module]?.events ?? [])) {
      const categories = (subjects[module]?.[event.type] ?? '').split(' -> ')[1]?.split(' | ') ?? [];
      for (const field of declared(event)) {
        expect(sections.get(module)).toMatch(
          new RegExp(`\\| ${event.type} +\\| \`${pattern(field)}\` +\\| \`(?:${categories.join('|')})-`),
        );
      }
    }
  });
});

function pattern(text: string) {
  return text.replace(/[.[\]]/g, (character) => `\\${character}`);
}
