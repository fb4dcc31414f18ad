import request from 'supertest';
import { mailModule } from '../../src/api/mail';
import {
  addContact,
  createLabel,
  scheduleEvent,
  syncMessage,
  type CalendarEventInput,
  type ContactDirectory,
  type ContactInput,
  type LabelInput,
  type MessageInput,
} from '../../src/commands/mail/handlers';
import type { SeedContext } from '../../src/seed/context';
import {
  describeModuleBasics,
  describeReads,
  describeWriteGuards,
  expectInvalid,
  expectRecord,
  listed,
} from '../support/module-api';
import { openModule, type ModuleHarness, allDocuments } from '../support/module-harness';
import { auth, expectEnvelope, namedFields } from './spec';

const SALES = 'sales@northwind.example';
const SUPPORT = 'support@northwind.example';

const label = (overrides: Partial<LabelInput>): LabelInput => ({
  mailbox: SALES,
  name: 'INBOX',
  type: 'system',
  background_color: null,
  text_color: null,
  label_list_visibility: 'labelShow',
  message_list_visibility: 'show',
  ...overrides,
});
const userLabel = (mailbox: string, name: string) =>
  label({ mailbox, name, type: 'user', background_color: '#16a766', text_color: '#ffffff' });

const contact = (overrides: Partial<ContactInput>): ContactInput => ({
  mailbox: SALES,
  given_name: 'Katrin',
  surname: 'Becker',
  emails: [{ email: 'katrin.becker@nordlicht.example', type: 'work' }],
  phone_numbers: [],
  company_name: 'Nordlicht Logistics',
  job_title: 'CIO',
  notes: null,
  source: 'address_book',
  ...overrides,
});

const katrin = { name: 'Katrin Becker', email: 'katrin.becker@nordlicht.example' };
const sales = { name: 'Northwind Sales', email: SALES };

const message = (overrides: Partial<MessageInput>): MessageInput => ({
  mailbox: SALES,
  thread_id: null,
  in_reply_to: null,
  internet_message_id: '<m@nordlicht.example>',
  subject: 'Pricing for HR Suite (250 users)',
  from: katrin,
  to: [sales],
  cc: [],
  bcc: [],
  date: '2026-10-28T09:00:00Z',
  snippet: 'Hello, we are evaluating HR Suite.',
  body: 'Hello, we are evaluating HR Suite.',
  label_ids: [],
  unread: false,
  starred: false,
  attachments: [],
  ...overrides,
});

const event = (overrides: Partial<CalendarEventInput>): CalendarEventInput => ({
  mailbox: SALES,
  calendar: 'Primary',
  title: 'Demo with Nordlicht',
  description: null,
  location: 'Online',
  start: '2026-11-24T10:00:00Z',
  end: '2026-11-24T11:00:00Z',
  all_day: false,
  timezone: 'Europe/Berlin',
  status: 'confirmed',
  busy: true,
  visibility: 'default',
  organizer: sales,
  participants: [{ ...katrin, status: 'yes' }],
  recurrence: null,
  conferencing_url: null,
  message_id: null,
  ...overrides,
});

/** Two mailboxes with labels and contacts, a three-message thread and another message, three events. */
async function fixtures({ commands }: SeedContext) {
  const id = async (result: Promise<{ id: number }>) => (await result).id;
  const inbox = await id(createLabel(commands, label({})));
  const sent = await id(createLabel(commands, label({ name: 'SENT' })));
  const leads = await id(createLabel(commands, userLabel(SALES, 'Leads')));
  const followUp = await id(createLabel(commands, userLabel(SALES, 'Follow up')));
  const supportInbox = await id(createLabel(commands, label({ mailbox: SUPPORT })));
  const bugs = await id(createLabel(commands, userLabel(SUPPORT, 'Bugs')));
  const contacts = new Map<string, number>();
  const directory: ContactDirectory = (mailbox, email) => contacts.get(`${mailbox} ${email.toLowerCase()}`);
  const added = async (input: ContactInput) => {
    const contactId = await id(addContact(commands, input));
    for (const { email } of input.emails) contacts.set(`${input.mailbox} ${email}`, contactId);
    return contactId;
  };
  const katrinId = await added(contact({}));
  await added(
    contact({
      given_name: 'Daan',
      surname: 'Bakker',
      emails: [{ email: 'daan.bakker@polaris.example', type: 'work' }],
      company_name: 'Polaris Freight',
      source: 'inbox',
    }),
  );
  await added(
    contact({
      mailbox: SUPPORT,
      given_name: 'Lea',
      surname: 'Martin',
      emails: [{ email: 'lea@umbria.example', type: 'work' }],
    }),
  );
  const first = await id(syncMessage(commands, message({ label_ids: [inbox, leads] }), directory));
  const reply = await id(
    syncMessage(
      commands,
      message({
        thread_id: first,
        in_reply_to: first,
        subject: 'Re: Pricing for HR Suite (250 users)',
        from: sales,
        to: [katrin],
        date: '2026-10-28T11:00:00Z',
        snippet: 'Attached is our proposal.',
        label_ids: [sent, leads],
        attachments: [{ filename: 'Proposal_Nordlicht.pdf', content_type: 'application/pdf', size: 220_000 }],
      }),
      directory,
    ),
  );
  const answer = await id(
    syncMessage(
      commands,
      message({
        thread_id: first,
        in_reply_to: reply,
        subject: 'Re: Pricing for HR Suite (250 users)',
        date: '2026-10-29T08:00:00Z',
        label_ids: [inbox],
        unread: true,
      }),
      directory,
    ),
  );
  const ticket = await id(
    syncMessage(
      commands,
      message({
        mailbox: SUPPORT,
        subject: '[Ticket #4711] Export to Excel fails',
        from: { name: 'Lea Martin', email: 'lea@umbria.example' },
        to: [{ name: 'Northwind Support', email: SUPPORT }],
        date: '2026-11-02T14:00:00Z',
        label_ids: [supportInbox, bugs],
        starred: true,
      }),
      directory,
    ),
  );
  const demo = await id(scheduleEvent(commands, event({ message_id: first }), directory));
  const lunch = await id(
    scheduleEvent(
      commands,
      event({
        title: 'Team lunch',
        location: 'Café Nord',
        start: '2026-12-03T11:30:00Z',
        end: '2026-12-03T12:30:00Z',
        status: 'tentative',
      }),
      directory,
    ),
  );
  const standup = await id(
    scheduleEvent(
      commands,
      event({
        mailbox: SUPPORT,
        title: 'Support stand-up',
        organizer: { name: 'Northwind Support', email: SUPPORT },
        start: '2026-11-10T08:00:00Z',
        end: '2026-11-10T08:15:00Z',
        status: 'cancelled',
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU'],
      }),
      directory,
    ),
  );
  return {
    inbox,
    sent,
    leads,
    followUp,
    supportInbox,
    bugs,
    first,
    reply,
    answer,
    ticket,
    demo,
    lunch,
    standup,
    katrinId,
  };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;
let h: ModuleHarness<Fixtures>;
beforeAll(async () => {
  h = await openModule(mailModule, { fixtures });
});
afterAll(() => h.close());

describeModuleBasics(mailModule, () => h);

describeReads(mailModule, () => h, [
  { path: 'messages', total: 4, search: { q: 'TICKET #4711', field: 'from_name', value: 'Lea Martin' } },
  { path: 'contacts', total: 3, search: { q: 'polaris', field: 'display_name', value: 'Daan Bakker' } },
  { path: 'labels', total: 6, search: { q: 'follow', field: 'name', value: 'Follow up' } },
  { path: 'events', total: 3, search: { q: 'café nord', field: 'title', value: 'Team lunch' } },
]);

describe('mailbox filters', () => {
  const ids = (path: string, query: Record<string, string | number>) => listed(h.app, path, query);

  it('lists a conversation by thread_id, in order, with its replies linked', async () => {
    const f = h.fixtures;
    expect(await ids('messages', { thread_id: f.first })).toEqual([f.first, f.reply, f.answer]);
    const answer = (await request(h.app).get(`/api/v1/messages/${f.answer}`)).body;
    expect(answer).toMatchObject({ thread_id: f.first, in_reply_to: f.reply, label_ids: [f.inbox] });
  });

  it('filters messages by mailbox, sender, flags, attachments and date', async () => {
    const f = h.fixtures;
    expect(await ids('messages', { mailbox: 'SUPPORT@northwind.example' })).toEqual([f.ticket]);
    expect(await ids('messages', { from_email: SALES })).toEqual([f.reply]);
    expect(await ids('messages', { unread: 'true' })).toEqual([f.answer]);
    expect(await ids('messages', { starred: 'true' })).toEqual([f.ticket]);
    expect(await ids('messages', { has_attachments: 'true' })).toEqual([f.reply]);
    expect(
      await ids('messages', { received_after: '2026-10-29', received_before: '2026-11-02T14:00:00Z' }),
    ).toEqual([f.answer]);
  });

  it('filters contacts, labels and events', async () => {
    const f = h.fixtures;
    expect(await listed(h.app, 'contacts', { source: 'inbox' }, 'display_name')).toEqual(['Daan Bakker']);
    expect(
      await listed(h.app, 'contacts', { company_name: 'Nordlicht Logistics', mailbox: SALES }, 'email'),
    ).toEqual(['katrin.becker@nordlicht.example']);
    expect(await ids('labels', { mailbox: SALES, type: 'user' })).toEqual([f.leads, f.followUp]);
    expect(await ids('events', { status: 'cancelled' })).toEqual([f.standup]);
    expect(await ids('events', { starts_after: '2026-11-20', starts_before: '2026-12-01' })).toEqual([
      f.demo,
    ]);
    expect(await ids('events', { organizer_email: SUPPORT })).toEqual([f.standup]);
  });

  it('shows an event with its participants and the message it was arranged in', async () => {
    const res = await request(h.app).get(`/api/v1/events/${h.fixtures.demo}`).expect(200);
    expect(res.body).toMatchObject({
      organizer_email: SALES,
      participants: [{ email: 'katrin.becker@nordlicht.example', status: 'yes' }],
      message_id: h.fixtures.first,
    });
  });

  it('rejects bad filter values with a 422 naming the parameter', async () => {
    const get = (path: string, query: Record<string, string>) =>
      request(h.app).get(`/api/v1/${path}`).query(query);
    expectInvalid(await get('messages', { unread: 'yes please' }), ['query', 'unread']);
    expectInvalid(await get('messages', { thread_id: 'abc' }), ['query', 'thread_id']);
    expectInvalid(await get('labels', { type: 'smart' }), ['query', 'type']);
    expectInvalid(await get('events', { starts_after: '24/11/2026' }), ['query', 'starts_after']);
  });
});

describe('PATCH /api/v1/messages/{id}', () => {
  let w: ModuleHarness<Fixtures>;
  beforeEach(async () => {
    w = await openModule(mailModule, { fixtures });
  });
  afterEach(() => w.close());

  const patch = (id: number | string, body: object) =>
    request(w.app).patch(`/api/v1/messages/${id}`).set(auth).send(body);

  it('applies a label and answers the message, as a GET then shows it', async () => {
    const res = await patch(w.fixtures.answer, { add_label_ids: [w.fixtures.followUp] }).expect(200);
    expectRecord(mailModule, 'messages', res.body);
    expect(res.body.label_ids).toEqual([w.fixtures.inbox, w.fixtures.followUp]);
    expect(res.body.updated_at).toBe('2026-11-21T09:30:00Z');
    expect((await request(w.app).get(`/api/v1/messages/${w.fixtures.answer}`)).body).toEqual(res.body);
  });

  it('archives (removes INBOX), marks read and stars in one change', async () => {
    const res = await patch(w.fixtures.answer, {
      remove_label_ids: [w.fixtures.inbox],
      unread: false,
      starred: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label_ids: [], unread: false, starred: true });
  });

  it('answers a change that changes nothing with the message and appends nothing', async () => {
    const head = await w.suite.eventStore.headPosition();
    const res = await patch(w.fixtures.first, { add_label_ids: [w.fixtures.leads] }).expect(200);
    expect(res.body.label_ids).toEqual([w.fixtures.inbox, w.fixtures.leads]);
    expect(await w.suite.eventStore.headPosition()).toBe(head);
  });

  it('refuses a label that does not exist (422 naming the field) and appends nothing', async () => {
    const head = await w.suite.eventStore.headPosition();
    const res = await patch(w.fixtures.first, { add_label_ids: [999] });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['add_label_ids']);
    expect(res.body.error.message).toBe('add_label_ids: label 999 does not exist');
    expect(await w.suite.eventStore.headPosition()).toBe(head);
  });

  it('refuses a label of another mailbox and the SENT label', async () => {
    const other = await patch(w.fixtures.first, { add_label_ids: [w.fixtures.bugs] });
    expect(other.body.error.message).toMatch(/belongs to another mailbox/);
    const sent = await patch(w.fixtures.first, { remove_label_ids: [w.fixtures.sent] });
    expectEnvelope(sent, 422, 'validation_error');
    expect(namedFields(sent)).toEqual(['remove_label_ids']);
  });

  it.each([
    [{}, 'an empty change'],
    [{ add_label_ids: [] }, 'an empty list'],
    [{ add_label_ids: ['Leads'] }, 'a label name instead of an id'],
    [{ unread: 'no' }, 'a string flag'],
  ])('rejects %j (%s) with 422', async (body, _reason) => {
    expectEnvelope(await patch(w.fixtures.first, body), 422, 'validation_error');
  });

  it('answers an unknown message with 404 and a non-integer id with 422', async () => {
    expectEnvelope(await patch(999, { unread: false }), 404, 'not_found');
    expectEnvelope(await patch('first', { unread: false }), 422, 'validation_error');
  });

  describeWriteGuards(() => w, {
    method: 'patch',
    path: () => `/api/v1/messages/${w.fixtures.first}`,
    body: () => ({ add_label_ids: [w.fixtures.followUp] }),
    openWithoutToken: () => openModule(mailModule, { token: null, fixtures }),
  });
});

describe('mailbox demo data', () => {
  let demo: ModuleHarness<undefined>;
  beforeAll(async () => {
    demo = await openModule(mailModule, { demo: true });
  }, 60_000);
  afterAll(() => demo.close());

  const all = (path: string) => allDocuments(demo, `mail.${path}`);

  it('holds a couple of thousand messages in threads and hundreds of contacts, labels and events', async () => {
    const messages = await all('messages');
    expect(messages.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(messages.map((record) => record.thread_id)).size).toBeLessThan(messages.length / 2);
    for (const path of ['contacts', 'labels', 'events'])
      expect((await all(path)).length).toBeGreaterThanOrEqual(150);
  });

  it('has references that all resolve within the mailbox: threads, replies, labels, event messages', async () => {
    const messages = new Map((await all('messages')).map((record) => [record.id, record]));
    const labels = new Map((await all('labels')).map((record) => [record.id, record]));
    for (const record of messages.values()) {
      expect(messages.get(record.thread_id as number)?.mailbox).toBe(record.mailbox);
      if (record.in_reply_to !== null)
        expect(messages.get(record.in_reply_to as number)?.thread_id).toBe(record.thread_id);
      for (const id of record.label_ids as number[]) expect(labels.get(id)?.mailbox).toBe(record.mailbox);
    }
    for (const record of await all('events'))
      if (record.message_id !== null)
        expect(messages.get(record.message_id as number)?.mailbox).toBe(record.mailbox);
  });
});
