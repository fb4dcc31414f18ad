import { eventCatalog } from '../../events/catalog';
import { mailCategories, mailEvents, mailStreams, type MailEvent, type MailEventOf } from '../../events/mail';
import { creationData, type CommandContext } from '../context';
import { moduleCommands } from '../module-commands';
import { calendarDecider, contactDecider, labelDecider } from './directory';
import { messageDecider, type ContactFacts, type LabelFacts } from './messages';

const { run, create } = moduleCommands(eventCatalog(mailEvents));

type Data<Type extends MailEvent['type']> = MailEventOf<Type>['data'];

/** The data of the event that created a record, if the record exists. */
const created = <Type extends MailEvent['type']>(context: CommandContext, stream: string) =>
  creationData<Data<Type>>(context, stream);

async function labelFacts(context: CommandContext, ids: readonly number[]): Promise<Map<number, LabelFacts>> {
  const labels = new Map<number, LabelFacts>();
  for (const id of new Set(ids)) {
    const label = await created<'LabelCreated'>(context, mailStreams.label(id));
    if (label) labels.set(id, { mailbox: label.mailbox, name: label.name, type: label.type });
  }
  return labels;
}

/** An address as a mailbox reports it; which contact it is, the write finds out (`ContactDirectory`). */
export type AddressInput = { name: string; email: string };

/**
 * Which contact of a mailbox an address is, if any (case aside). Asked as a message or calendar entry
 * is written, so that the event names the contact whose data each name and address is (see
 * docs/PERSONAL-DATA.md); a contact it names is checked against the contact's own record.
 */
export type ContactDirectory = (
  mailbox: string,
  email: string,
) => number | undefined | Promise<number | undefined>;

type Resolved<Party extends AddressInput> = Party & { contact_id: number | null };

/** The parties with the contact each is (the mailbox's own address never is one), and those contacts' facts. */
async function resolveParties<Party extends AddressInput>(
  context: CommandContext,
  mailbox: string,
  parties: readonly Party[],
  directory: ContactDirectory,
  contacts: Map<number, ContactFacts>,
): Promise<Resolved<Party>[]> {
  const resolved: Resolved<Party>[] = [];
  for (const party of parties) {
    const own = party.email.toLowerCase() === mailbox.toLowerCase();
    const contact_id = own ? undefined : await directory(mailbox, party.email);
    if (contact_id !== undefined && !contacts.has(contact_id)) {
      const contact = await created<'ContactAdded'>(context, mailStreams.contact(contact_id));
      if (contact) {
        contacts.set(contact_id, {
          mailbox: contact.mailbox,
          emails: contact.emails.map(({ email }) => email.toLowerCase()),
        });
      }
    }
    resolved.push({ ...party, contact_id: contact_id ?? null });
  }
  return resolved;
}

export type LabelInput = Omit<Data<'LabelCreated'>, 'id'>;

export function createLabel(context: CommandContext, label: LabelInput) {
  return create(context, mailCategories.label, labelDecider, (id) => ({
    type: 'CreateLabel' as const,
    label: { id, ...label },
  }));
}

export type ContactInput = Omit<Data<'ContactAdded'>, 'id'>;

export function addContact(context: CommandContext, contact: ContactInput) {
  return create(context, mailCategories.contact, contactDecider, (id) => ({
    type: 'AddContact' as const,
    contact: { id, ...contact },
  }));
}

export type MessageInput = Omit<Data<'MessageSynced'>, 'id' | 'thread_id' | 'from' | 'to' | 'cc' | 'bcc'> & {
  /** The thread's first message; null: this message starts a thread (its id becomes the thread id). */
  thread_id: number | null;
  from: AddressInput;
  to: AddressInput[];
  cc: AddressInput[];
  bcc: AddressInput[];
};

export function syncMessage(context: CommandContext, input: MessageInput, directory: ContactDirectory) {
  return create(context, mailCategories.message, messageDecider, async (id) => {
    const contacts = new Map<number, ContactFacts>();
    const parties = (list: readonly AddressInput[]) =>
      resolveParties(context, input.mailbox, list, directory, contacts);
    const [from] = await parties([input.from]);
    const message = {
      ...input,
      id,
      thread_id: input.thread_id ?? id,
      from: from as Resolved<AddressInput>,
      to: await parties(input.to),
      cc: await parties(input.cc),
      bcc: await parties(input.bcc),
    };
    const replied =
      message.in_reply_to === null
        ? undefined
        : await created<'MessageSynced'>(context, mailStreams.message(message.in_reply_to));
    const thread =
      message.thread_id === id
        ? undefined
        : await created<'MessageSynced'>(context, mailStreams.message(message.thread_id));
    return {
      type: 'SyncMessage' as const,
      message,
      thread: thread && { mailbox: thread.mailbox },
      repliedTo: replied && { mailbox: replied.mailbox, thread_id: replied.thread_id },
      labels: await labelFacts(context, message.label_ids),
      contacts,
    };
  });
}

export interface MessageChange {
  add_label_ids?: number[];
  remove_label_ids?: number[];
  unread?: boolean;
  starred?: boolean;
}

export async function updateMessage(context: CommandContext, messageId: number, change: MessageChange) {
  const labels = await labelFacts(context, [
    ...(change.add_label_ids ?? []),
    ...(change.remove_label_ids ?? []),
  ]);
  return run(context, mailStreams.message(messageId), messageDecider, {
    type: 'UpdateMessage',
    ...change,
    labels,
  });
}

type Participant = Data<'CalendarEventScheduled'>['participants'][number];

export type CalendarEventInput = Omit<Data<'CalendarEventScheduled'>, 'id' | 'organizer' | 'participants'> & {
  organizer: AddressInput;
  participants: (AddressInput & Pick<Participant, 'status'>)[];
};

export function scheduleEvent(
  context: CommandContext,
  event: CalendarEventInput,
  directory: ContactDirectory,
) {
  return create(context, mailCategories.event, calendarDecider, async (id) => {
    const contacts = new Map<number, ContactFacts>();
    const [organizer] = await resolveParties(context, event.mailbox, [event.organizer], directory, contacts);
    const participants = await resolveParties(
      context,
      event.mailbox,
      event.participants,
      directory,
      contacts,
    );
    return {
      type: 'ScheduleEvent' as const,
      event: { id, ...event, organizer: organizer as Resolved<AddressInput>, participants },
      contacts,
      messageMailbox:
        event.message_id === null
          ? undefined
          : (await created<'MessageSynced'>(context, mailStreams.message(event.message_id)))?.mailbox,
    };
  });
}
