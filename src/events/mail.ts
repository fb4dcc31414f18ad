import { z } from 'zod';
import { defineEvent, ownPersonalData, personalItems, type EventsOf } from './catalog';

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

/** An address as a message or an invitation names it; up to v1, without its contact. */
const AddressV1 = z.object({ name: z.string(), email: z.string() });
/**
 * An address and, since v2, the contact of the mailbox it is (`null`: no contact's, the mailbox's own
 * included), found when the message was written: its name and address are that contact's data.
 */
export const Address = AddressV1.extend({ contact_id: id.nullable() });
export type Address = z.infer<typeof Address>;
const participantStatus = { status: z.enum(PARTICIPANT_STATUSES) };
type Party = { contact_id: number | null };

/**
 * Whose a name and address are: the contact's, when the address is a contact's; else the record's
 * that holds it (the message or calendar entry), the person having no record of their own.
 */
const partyOf = (stream: string, party: Party | null | undefined) =>
  party?.contact_id ? mailStreams.contact(party.contact_id) : stream;

/** v1 data with a contact (`null`) added to every address of the fields named. */
function withoutContacts(data: unknown, single: readonly string[], lists: readonly string[]): unknown {
  const record = { ...(data as Record<string, unknown>) };
  for (const field of single) record[field] = { ...(record[field] as object), contact_id: null };
  for (const field of lists)
    record[field] = (record[field] as object[]).map((item) => ({ ...item, contact_id: null }));
  return record;
}
export const Attachment = z.object({
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int().positive(),
});

/** A message as synced from the mailbox, its addresses of the given shape. */
const messageSynced = <Shape extends typeof AddressV1>(address: Shape) =>
  z.object({
    id,
    mailbox: z.string(),
    thread_id: id,
    in_reply_to: id.nullable(),
    internet_message_id: z.string(),
    subject: z.string(),
    from: address,
    to: z.array(address),
    cc: z.array(address),
    bcc: z.array(address),
    date: timestamp,
    snippet: z.string(),
    body: z.string(),
    label_ids: z.array(id),
    unread: z.boolean(),
    starred: z.boolean(),
    attachments: z.array(Attachment),
  });

/** A calendar entry, its organizer and participants of the given shapes. */
const calendarEventScheduled = <Shape extends typeof AddressV1, Participant extends typeof AddressV1>(
  address: Shape,
  participant: Participant,
) =>
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
    organizer: address,
    participants: z.array(participant),
    recurrence: z.array(z.string()).nullable(),
    conferencing_url: z.string().nullable(),
    /** The message of the mailbox the event was arranged in, when there is one. */
    message_id: id.nullable(),
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
  defineEvent('MessageSynced', messageSynced(Address), {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: messageSynced(AddressV1),
        upcast: (data) => withoutContacts(data, ['from'], ['to', 'cc', 'bcc']),
      },
    ],
    /**
     * Each name and address is its contact's (`contact_id`), and so are the body and snippet of what a
     * contact sent; the rest, and the addresses of people who are no contact (the mailbox's own), are
     * keyed to the message that holds them. v1 events named no contact: all of theirs is the message's.
     */
    personal: [
      { subject: ({ stream }) => stream, fields: ['subject', 'attachments[].filename'] },
      {
        subject: ({ stream, data }) => partyOf(stream, data.from as Party | undefined),
        fields: ['snippet', 'body', 'from.name', 'from.email'],
      },
      ...['to', 'cc', 'bcc'].map((field) =>
        personalItems(field, ({ stream }, item: Party) => partyOf(stream, item), 'name', 'email'),
      ),
    ],
  }),
  defineEvent('MessageLabelApplied', z.object({ label_id: id })),
  defineEvent('MessageLabelRemoved', z.object({ label_id: id })),
  defineEvent('MessageReadStateChanged', z.object({ unread: z.boolean() })),
  defineEvent('MessageStarChanged', z.object({ starred: z.boolean() })),
  defineEvent('CalendarEventScheduled', calendarEventScheduled(Address, Address.extend(participantStatus)), {
    version: 2,
    upcasters: [
      {
        from: 1,
        schema: calendarEventScheduled(AddressV1, AddressV1.extend(participantStatus)),
        upcast: (data) => withoutContacts(data, ['organizer'], ['participants']),
      },
    ],
    /** The organizer and each participant are their contact's, as on a message; the rest the entry's. */
    personal: [
      ...ownPersonalData('title', 'description', 'location'),
      {
        subject: ({ stream, data }) => partyOf(stream, data.organizer as Party | undefined),
        fields: ['organizer.name', 'organizer.email'],
      },
      personalItems('participants', ({ stream }, item: Party) => partyOf(stream, item), 'name', 'email'),
    ],
  }),
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
