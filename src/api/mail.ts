import { z } from 'zod';
import { updateMessage } from '../commands/mail/handlers';
import { CONTACT_SOURCES, EVENT_STATUSES, LABEL_TYPES, mailEvents } from '../events/mail';
import {
  CalendarEventRecord,
  LabelRecord,
  MailContactRecord,
  MessageRecord,
  mailProjector,
  messagesProjection,
} from '../projections/mail';
import { seedMailbox } from '../seed/mail';
import type { FilterDefinition, ModuleDefinition, ResourceDefinition, WriteRoute } from './kit/module';
import { booleanFilter, dateOrTimestamp, enumFilter, idFilter, pathId } from './kit/parameters';

const address = (field: string, description: string): FilterDefinition => ({
  field,
  schema: z
    .string()
    .trim()
    .min(3)
    .transform((email) => email.toLowerCase()),
  description,
});

const mailboxFilter = address('mailbox', 'The mailbox (its address), e.g. sales@northwind.example');

const messages: ResourceDefinition = {
  path: 'messages',
  name: 'Message',
  description: 'messages with their conversation, labels and flags',
  record: MessageRecord,
  collection: {
    name: 'mail.messages',
    idKind: 'integer',
    searchFields: ['subject', 'from_name', 'from_email'],
    filterFields: ['mailbox', 'thread_id', 'from_email', 'unread', 'starred', 'has_attachments', 'date'],
  },
  filters: {
    mailbox: mailboxFilter,
    thread_id: idFilter('thread_id', 'The messages of one conversation'),
    from_email: address('from_email', 'Sender address'),
    unread: booleanFilter('unread', 'Unread (true) or read (false) messages'),
    starred: booleanFilter('starred', 'Starred messages'),
    has_attachments: booleanFilter('has_attachments', 'Messages with attachments'),
    received_after: {
      field: 'date',
      op: 'gte',
      schema: dateOrTimestamp(),
      description: 'Sent or received at or after this date or time',
    },
    received_before: {
      field: 'date',
      op: 'lt',
      schema: dateOrTimestamp(),
      description: 'Sent or received before this date or time',
    },
  },
};

const contacts: ResourceDefinition = {
  path: 'contacts',
  name: 'Contact',
  description: 'mail contacts with their company details',
  record: MailContactRecord,
  collection: {
    name: 'mail.contacts',
    idKind: 'integer',
    searchFields: ['display_name', 'email', 'company_name', 'job_title'],
    filterFields: ['mailbox', 'source', 'company_name'],
  },
  filters: {
    mailbox: mailboxFilter,
    source: enumFilter('source', CONTACT_SOURCES),
    company_name: {
      field: 'company_name',
      schema: z.string().trim().min(1),
      description: 'Exact company name',
    },
  },
};

const labels: ResourceDefinition = {
  path: 'labels',
  name: 'Label',
  description: 'system and user-defined labels of each mailbox',
  record: LabelRecord,
  collection: {
    name: 'mail.labels',
    idKind: 'integer',
    searchFields: ['name'],
    filterFields: ['mailbox', 'type'],
  },
  filters: { mailbox: mailboxFilter, type: enumFilter('type', LABEL_TYPES) },
};

const events: ResourceDefinition = {
  path: 'events',
  name: 'Event',
  description: 'calendar events of the mailboxes',
  record: CalendarEventRecord,
  collection: {
    name: 'mail.events',
    idKind: 'integer',
    searchFields: ['title', 'description', 'location', 'organizer_name'],
    filterFields: ['mailbox', 'status', 'calendar', 'start', 'organizer_email'],
  },
  filters: {
    mailbox: mailboxFilter,
    status: enumFilter('status', EVENT_STATUSES),
    calendar: { field: 'calendar', schema: z.string().trim().min(1), description: 'Exact calendar name' },
    organizer_email: address('organizer_email', 'Organizer address'),
    starts_after: {
      field: 'start',
      op: 'gte',
      schema: dateOrTimestamp(),
      description: 'Starting at or after this date or time',
    },
    starts_before: {
      field: 'start',
      op: 'lt',
      schema: dateOrTimestamp(),
      description: 'Starting before this date or time',
    },
  },
};

const labelIds = z.array(z.int().positive()).min(1).max(20);

const MessageChange = z
  .strictObject({
    add_label_ids: labelIds.optional().meta({ description: 'Labels of the same mailbox to apply' }),
    remove_label_ids: labelIds.optional().meta({ description: 'Labels to remove' }),
    unread: z.boolean().optional(),
    starred: z.boolean().optional(),
  })
  .refine((change) => Object.keys(change).length > 0, {
    message: 'Send at least one of add_label_ids, remove_label_ids, unread, starred',
    when: (payload) => payload.issues.length === 0,
  })
  .meta({ id: 'MessageChange' });

const updateMessageRoute: WriteRoute<z.infer<typeof MessageChange>> = {
  method: 'patch',
  path: '/api/v1/messages/:id',
  operation: 'updateMessage',
  summary: 'Apply or remove labels, mark a message read or unread, star or unstar it',
  body: MessageChange,
  status: 200,
  resource: messages,
  projection: messagesProjection,
  execute: ({ body, params }, context) => updateMessage(context, pathId(params), body),
};

export const mailModule: ModuleDefinition = {
  id: 'mail',
  title: 'Mailbox',
  shortTitle: 'Mailbox',
  description:
    'Messages in conversations with labels and flags, contacts, labels and calendar events of the team mailboxes. ' +
    'Reads are public; writes need a bearer token.',
  version: '1.0.0',
  itemParam: 'id',
  readErrors: 'envelope',
  list: { defaultLimit: 50, maxLimit: 200 },
  resources: [messages, contacts, labels, events],
  writes: [updateMessageRoute] as WriteRoute[],
  events: mailEvents,
  projector: mailProjector,
  seed: seedMailbox,
};
