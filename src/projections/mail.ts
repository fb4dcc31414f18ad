import { z } from 'zod';
import type { StoredEvent } from '../events/envelope';
import {
  CONTACT_SOURCES,
  EVENT_STATUSES,
  EVENT_VISIBILITY,
  LABEL_LIST_VISIBILITY,
  LABEL_TYPES,
  MESSAGE_LIST_VISIBILITY,
  PARTICIPANT_STATUSES,
  type MailEvent,
  mailStreams,
} from '../events/mail';
import { id, text, textOrNull, oneOf, timestamp } from './fields';
import { createdByOf, idFromStream, type DocumentProjection, type Projector } from './projection';
import { derivedText } from '../privacy/sealed-value';

const contactId = id.nullable().meta({ description: 'The mailbox contact this address is; null: none is' });
const Address = z.object({ name: text, email: text, contact_id: contactId });

export const LabelRecord = z
  .object({
    id,
    mailbox: text,
    name: text.meta({
      description: 'System labels: INBOX, SENT, DRAFT, SPAM, TRASH, IMPORTANT; user labels nest with /',
    }),
    type: oneOf(LABEL_TYPES),
    background_color: textOrNull,
    text_color: textOrNull,
    label_list_visibility: oneOf(LABEL_LIST_VISIBILITY),
    message_list_visibility: oneOf(MESSAGE_LIST_VISIBILITY),
    created_at: timestamp,
  })
  .meta({ id: 'Label' });

export const MailContactRecord = z
  .object({
    id,
    mailbox: text,
    given_name: text,
    surname: text,
    display_name: text,
    email: text.meta({ description: 'The first of `emails`' }),
    emails: z.array(z.object({ email: text, type: text })),
    phone_numbers: z.array(z.object({ number: text, type: text })),
    company_name: textOrNull,
    job_title: textOrNull,
    notes: textOrNull,
    source: oneOf(
      CONTACT_SOURCES,
      'address_book: added by the user; inbox: collected from mail; domain: directory',
    ),
    created_at: timestamp,
  })
  .meta({ id: 'MailContact' });

export const MessageRecord = z
  .object({
    id,
    mailbox: text,
    thread_id: id.meta({ description: 'The id of the first message of the conversation' }),
    in_reply_to: id.nullable(),
    internet_message_id: text,
    subject: text,
    from_name: text,
    from_email: text,
    from_contact_id: contactId,
    to: z.array(Address),
    cc: z.array(Address),
    bcc: z.array(Address),
    date: timestamp,
    snippet: text,
    body: text,
    label_ids: z.array(id).meta({ description: 'Labels of the message, system and user' }),
    unread: z.boolean(),
    starred: z.boolean(),
    has_attachments: z.boolean(),
    attachments: z.array(z.object({ filename: text, content_type: text, size: z.number().int() })),
    updated_at: timestamp,
  })
  .meta({ id: 'Message' });

export const CalendarEventRecord = z
  .object({
    id,
    mailbox: text,
    calendar: text,
    title: text,
    description: textOrNull,
    location: textOrNull,
    start: timestamp,
    end: timestamp,
    all_day: z.boolean(),
    timezone: text.meta({ description: 'IANA time zone of the event' }),
    status: oneOf(EVENT_STATUSES),
    busy: z.boolean(),
    visibility: oneOf(EVENT_VISIBILITY),
    organizer_name: text,
    organizer_email: text,
    organizer_contact_id: contactId,
    participants: z.array(Address.extend({ status: oneOf(PARTICIPANT_STATUSES) })),
    recurrence: z.array(text).nullable().meta({ description: 'RRULE lines of a recurring event' }),
    conferencing_url: textOrNull,
    message_id: id
      .nullable()
      .meta({ description: 'The message the event was arranged in, when there is one' }),
    created_at: timestamp,
  })
  .meta({ id: 'CalendarEvent' });

export type LabelRecord = z.infer<typeof LabelRecord>;
export type MailContactRecord = z.infer<typeof MailContactRecord>;
export type MessageRecord = z.infer<typeof MessageRecord>;
export type CalendarEventRecord = z.infer<typeof CalendarEventRecord>;

type Event = StoredEvent & MailEvent;

const createdBy = createdByOf<Event>();

const labels = createdBy(
  'mail.labels',
  'LabelCreated',
  mailStreams.label,
  ({ data, metadata }): LabelRecord => ({
    ...data,
    created_at: metadata.occurred_at,
  }),
);

const contacts = createdBy(
  'mail.contacts',
  'ContactAdded',
  mailStreams.contact,
  ({ data, metadata }): MailContactRecord => {
    const { id, mailbox, given_name, surname, ...rest } = data;
    const display_name = derivedText([given_name, surname]);
    const email = data.emails[0]?.email ?? '';
    return {
      id,
      mailbox,
      given_name,
      surname,
      display_name,
      email,
      ...rest,
      created_at: metadata.occurred_at,
    };
  },
);

const events = createdBy(
  'mail.events',
  'CalendarEventScheduled',
  mailStreams.event,
  ({ data, metadata }): CalendarEventRecord => {
    const { organizer, ...rest } = data;
    return {
      ...rest,
      organizer_name: organizer.name,
      organizer_email: organizer.email,
      organizer_contact_id: organizer.contact_id,
      created_at: metadata.occurred_at,
    };
  },
);

function evolveMessage(doc: MessageRecord | null, stored: StoredEvent): MessageRecord | null {
  const event = stored as Event;
  const at = event.metadata.occurred_at;
  if (event.type === 'MessageSynced') {
    const { from, to, cc, bcc, date, snippet, body, label_ids, unread, starred, attachments } = event.data;
    const { id, mailbox, thread_id, in_reply_to, internet_message_id, subject } = event.data;
    return {
      id,
      mailbox,
      thread_id,
      in_reply_to,
      internet_message_id,
      subject,
      from_name: from.name,
      from_email: from.email,
      from_contact_id: from.contact_id,
      ...{ to, cc, bcc, date, snippet, body, label_ids, unread, starred },
      has_attachments: attachments.length > 0,
      attachments,
      updated_at: at,
    };
  }
  if (!doc) return null;
  switch (event.type) {
    case 'MessageLabelApplied':
      return { ...doc, label_ids: [...doc.label_ids, event.data.label_id], updated_at: at };
    case 'MessageLabelRemoved':
      return {
        ...doc,
        label_ids: doc.label_ids.filter((label) => label !== event.data.label_id),
        updated_at: at,
      };
    case 'MessageReadStateChanged':
      return { ...doc, unread: event.data.unread, updated_at: at };
    case 'MessageStarChanged':
      return { ...doc, starred: event.data.starred, updated_at: at };
    default:
      return doc;
  }
}

export const messagesProjection: DocumentProjection<MessageRecord> = {
  collection: 'mail.messages',
  handles: [
    'MessageSynced',
    'MessageLabelApplied',
    'MessageLabelRemoved',
    'MessageReadStateChanged',
    'MessageStarChanged',
  ],
  documentId: idFromStream,
  stream: (id) => mailStreams.message(Number(id)),
  evolve: evolveMessage,
  ownUpdatedAt: true,
};

export const mailProjector: Projector = {
  name: 'mail',
  // 2: every record carries created_at and updated_at (`evolveStamped`).
  version: 2,
  projections: [messagesProjection, contacts, labels, events],
};
