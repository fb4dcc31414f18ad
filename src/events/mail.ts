import { z } from 'zod';
import { defineEvent, ownPersonalData, type EventsOf } from './catalog';

const id = z.number().int().positive();
const timestamp = z.string();

/** Gmail's system labels that a mailbox keeps; unread and starred are flags of the message. */
export const SYSTEM_LABELS = ['INBOX', 'SENT', 'DRAFT', 'SPAM', 'TRASH', 'IMPORTANT'] as const;
/** System labels only the mailbox itself applies (as Gmail refuses to add or remove them). */
export const MAILBOX_MANAGED_LABELS: readonly string[] = ['SENT', 'DRAFT'];
export const LABEL_TYPES = ['system', 'user'] as const;
export const LABEL_LIST_VISIBILITY = ['labelShow', 'labelShowIfUnread', 'labelHide'] as const;
export const MESSAGE_LIST_VISIBILITY = ['show', 'hide'] as const;
export const CONTACT_SOURCES = ['address_book', 'inbox', 'domain'] as const;
export const EVENT_STATUSES = ['confirmed', 'tentative', 'cancelled'] as const;
export const PARTICIPANT_STATUSES = ['yes', 'no', 'maybe', 'noreply'] as const;
export const EVENT_VISIBILITY = ['default', 'public', 'private'] as const;

const Address = z.object({ name: z.string(), email: z.string() });
export const Attachment = z.object({
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int().positive(),
});

export const mailEvents = [
  defineEvent(
    'LabelCreated',
    z.object({
      id,
      mailbox: z.string(),
      name: z.string(),
      type: z.enum(LABEL_TYPES),
      background_color: z.string().nullable(),
      text_color: z.string().nullable(),
      label_list_visibility: z.enum(LABEL_LIST_VISIBILITY),
      message_list_visibility: z.enum(MESSAGE_LIST_VISIBILITY),
    }),
  ),
  defineEvent(
    'ContactAdded',
    z.object({
      id,
      mailbox: z.string(),
      given_name: z.string(),
      surname: z.string(),
      emails: z.array(z.object({ email: z.string(), type: z.enum(['work', 'personal']) })).min(1),
      phone_numbers: z.array(z.object({ number: z.string(), type: z.enum(['work', 'mobile', 'home']) })),
      company_name: z.string().nullable(),
      job_title: z.string().nullable(),
      notes: z.string().nullable(),
      source: z.enum(CONTACT_SOURCES),
    }),
    {
      personal: ownPersonalData('given_name', 'surname', 'emails[].email', 'phone_numbers[].number', 'notes'),
    },
  ),
  defineEvent(
    'MessageSynced',
    z.object({
      id,
      mailbox: z.string(),
      thread_id: id,
      in_reply_to: id.nullable(),
      internet_message_id: z.string(),
      subject: z.string(),
      from: Address,
      to: z.array(Address),
      cc: z.array(Address),
      bcc: z.array(Address),
      date: timestamp,
      snippet: z.string(),
      body: z.string(),
      label_ids: z.array(id),
      unread: z.boolean(),
      starred: z.boolean(),
      attachments: z.array(Attachment),
    }),
    /**
     * The event names no contact, and a mailbox has no stream: the correspondence is keyed to the
     * message that holds it.
     */
    {
      personal: ownPersonalData(
        'subject',
        'snippet',
        'body',
        'from.name',
        'from.email',
        'to[].name',
        'to[].email',
        'cc[].name',
        'cc[].email',
        'bcc[].name',
        'bcc[].email',
        'attachments[].filename',
      ),
    },
  ),
  defineEvent('MessageLabelApplied', z.object({ label_id: id })),
  defineEvent('MessageLabelRemoved', z.object({ label_id: id })),
  defineEvent('MessageReadStateChanged', z.object({ unread: z.boolean() })),
  defineEvent('MessageStarChanged', z.object({ starred: z.boolean() })),
  defineEvent(
    'CalendarEventScheduled',
    z.object({
      id,
      mailbox: z.string(),
      calendar: z.string(),
      title: z.string(),
      description: z.string().nullable(),
      location: z.string().nullable(),
      start: timestamp,
      end: timestamp,
      all_day: z.boolean(),
      timezone: z.string(),
      status: z.enum(EVENT_STATUSES),
      busy: z.boolean(),
      visibility: z.enum(EVENT_VISIBILITY),
      organizer: Address,
      participants: z.array(Address.extend({ status: z.enum(PARTICIPANT_STATUSES) })),
      recurrence: z.array(z.string()).nullable(),
      conferencing_url: z.string().nullable(),
      /** The message of the mailbox the event was arranged in, when there is one. */
      message_id: id.nullable(),
    }),
    /** Participants are named by address only: the entry is keyed to the calendar event that holds it. */
    {
      personal: ownPersonalData(
        'title',
        'description',
        'location',
        'organizer.name',
        'organizer.email',
        'participants[].name',
        'participants[].email',
      ),
    },
  ),
] as const;

export type MailEvent = EventsOf<typeof mailEvents>;
export type MailEventOf<Type extends MailEvent['type']> = Extract<MailEvent, { type: Type }>;

export const mailStreams = {
  label: (labelId: number) => `mail.label-${labelId}`,
  contact: (contactId: number) => `mail.contact-${contactId}`,
  message: (messageId: number) => `mail.message-${messageId}`,
  event: (eventId: number) => `mail.event-${eventId}`,
};

export const mailCategories = {
  label: 'mail.label',
  contact: 'mail.contact',
  message: 'mail.message',
  event: 'mail.event',
} as const;
