import { calendarDecider } from '../../src/commands/mail/directory';
import {
  messageDecider,
  type ContactFacts,
  type LabelFacts,
  type SyncMessage,
  type UpdateMessage,
} from '../../src/commands/mail/messages';
import type { MailEventOf } from '../../src/events/mail';
import { deciderSpec } from '../support/decider-spec';

const given = deciderSpec(messageDecider);
const SALES = 'sales@northwind.example';
const labels = new Map<number, LabelFacts>([
  [1, { mailbox: SALES, name: 'INBOX', type: 'system' }],
  [2, { mailbox: SALES, name: 'SENT', type: 'system' }],
  [3, { mailbox: SALES, name: 'Leads', type: 'user' }],
  [4, { mailbox: SALES, name: 'Follow up', type: 'user' }],
  [9, { mailbox: 'support@northwind.example', name: 'Bugs', type: 'user' }],
]);

const message: SyncMessage['message'] = {
  id: 7,
  mailbox: SALES,
  thread_id: 7,
  in_reply_to: null,
  internet_message_id: '<a1@nordlicht.example>',
  subject: 'Pricing for HR Suite (250 users)',
  from: { name: 'Katrin Becker', email: 'katrin.becker@nordlicht.example', contact_id: 5 },
  to: [{ name: 'Northwind Sales', email: SALES, contact_id: null }],
  cc: [],
  bcc: [],
  date: '2026-11-20T09:00:00Z',
  snippet: 'Hello, we are evaluating...',
  body: 'Hello, we are evaluating HR Suite.',
  label_ids: [1, 3],
  unread: true,
  starred: false,
  attachments: [],
};
/** Katrin is contact 5 of the sales mailbox; contact 6 is of another mailbox. */
const contacts = new Map<number, ContactFacts>([
  [5, { mailbox: SALES, emails: ['katrin.becker@nordlicht.example'] }],
  [6, { mailbox: 'support@northwind.example', emails: ['lea@umbria.example'] }],
]);
const synced: MailEventOf<'MessageSynced'> = { type: 'MessageSynced', data: message };
const update = (change: Partial<UpdateMessage>): UpdateMessage => ({
  type: 'UpdateMessage',
  labels,
  ...change,
});

describe('syncing a message', () => {
  const sync = (overrides: Partial<SyncMessage> = {}): SyncMessage => ({
    type: 'SyncMessage',
    message,
    thread: undefined,
    repliedTo: undefined,
    labels,
    contacts,
    ...overrides,
  });

  it('stores a message that starts a thread, with labels of its mailbox', () => {
    given([]).when(sync()).then([synced]);
  });

  it('refuses a reply whose thread or replied message is elsewhere', () => {
    const reply = { ...message, id: 8, thread_id: 7, in_reply_to: 7 };
    given([])
      .when(sync({ message: reply, thread: { mailbox: SALES }, repliedTo: { mailbox: SALES, thread_id: 7 } }))
      .then([{ type: 'MessageSynced', data: reply }]);
    given([])
      .when(sync({ message: reply, thread: undefined, repliedTo: { mailbox: SALES, thread_id: 7 } }))
      .thenThrows({ message: expect.stringMatching(/^thread_id/) });
    given([])
      .when(sync({ message: reply, thread: { mailbox: SALES }, repliedTo: { mailbox: SALES, thread_id: 3 } }))
      .thenThrows({ message: expect.stringMatching(/^in_reply_to/) });
  });

  it('refuses a label of another mailbox', () => {
    given([])
      .when(sync({ message: { ...message, label_ids: [9] } }))
      .thenThrows({ message: expect.stringMatching(/^label_ids: label 9 belongs to another mailbox/) });
  });

  it('refuses an address said to be a contact that is not it, so that no one’s data is keyed to another', () => {
    const from = (contact_id: number) => ({ message: { ...message, from: { ...message.from, contact_id } } });
    given([])
      .when(sync(from(9)))
      .thenThrows({ message: 'from: contact 9 does not exist' });
    given([])
      .when(sync(from(6)))
      .thenThrows({ message: 'from: contact 6 belongs to another mailbox' });
    const other = { name: 'Lea', email: 'other@nordlicht.example', contact_id: 5 };
    given([])
      .when(sync({ message: { ...message, cc: [other] } }))
      .thenThrows({ message: 'cc: contact 5 has another address' });
  });
});

describe('labelling and flagging a message', () => {
  it('applies and removes labels, skipping what is already so', () => {
    given([synced])
      .when(update({ add_label_ids: [4, 3], remove_label_ids: [1] }))
      .then([
        { type: 'MessageLabelApplied', data: { label_id: 4 } },
        { type: 'MessageLabelRemoved', data: { label_id: 1 } },
      ]);
  });

  it('marks read and stars', () => {
    given([synced])
      .when(update({ unread: false, starred: true }))
      .then([
        { type: 'MessageReadStateChanged', data: { unread: false } },
        { type: 'MessageStarChanged', data: { starred: true } },
      ]);
  });

  it('refuses a label that does not exist or belongs to another mailbox, naming the field', () => {
    given([synced])
      .when(update({ add_label_ids: [99] }))
      .thenThrows({
        code: 'validation_error',
        message: 'add_label_ids: label 99 does not exist',
      });
    given([synced])
      .when(update({ remove_label_ids: [9] }))
      .thenThrows({
        message: expect.stringMatching(/^remove_label_ids: label 9 belongs to another mailbox/),
      });
  });

  it('refuses SENT and DRAFT, which only the mailbox applies', () => {
    given([synced])
      .when(update({ add_label_ids: [2] }))
      .thenThrows({ message: 'add_label_ids: SENT is applied by the mailbox itself' });
  });

  it('refuses a label both added and removed', () => {
    given([synced])
      .when(update({ add_label_ids: [4], remove_label_ids: [4] }))
      .thenThrows({ message: expect.stringMatching(/^remove_label_ids/) });
  });

  it('decides nothing for a change that changes nothing', () => {
    given([synced])
      .when(update({ add_label_ids: [3], unread: true }))
      .then([]);
  });

  it('answers not_found for a message that does not exist', () => {
    given([])
      .when(update({ unread: false }))
      .thenThrows({ code: 'not_found' });
  });
});

describe('calendar events', () => {
  const event: MailEventOf<'CalendarEventScheduled'>['data'] = {
    id: 1,
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
    organizer: { name: 'Northwind Sales', email: SALES, contact_id: null },
    participants: [],
    recurrence: null,
    conferencing_url: null,
    message_id: 7,
  };

  it('schedules an event arranged in a message of the same mailbox', () => {
    deciderSpec(calendarDecider)([])
      .when({ type: 'ScheduleEvent', event, contacts, messageMailbox: SALES })
      .then([{ type: 'CalendarEventScheduled', data: event }]);
    deciderSpec(calendarDecider)([])
      .when({ type: 'ScheduleEvent', event, contacts, messageMailbox: undefined })
      .thenThrows({ message: expect.stringMatching(/^message_id/) });
  });

  it('refuses an event that ends before it starts', () => {
    deciderSpec(calendarDecider)([])
      .when({
        type: 'ScheduleEvent',
        event: { ...event, end: '2026-11-24T09:00:00Z' },
        contacts,
        messageMailbox: SALES,
      })
      .thenThrows({ message: expect.stringMatching(/^end/) });
  });
});
