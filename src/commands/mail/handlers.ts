import { eventCatalog } from '../../events/catalog';
import { mailCategories, mailEvents, mailStreams, type MailEvent, type MailEventOf } from '../../events/mail';
import { creationData, type CommandContext } from '../context';
import { moduleCommands } from '../module-commands';
import { calendarDecider, contactDecider, labelDecider } from './directory';
import { messageDecider, type LabelFacts } from './messages';

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

export type MessageInput = Omit<Data<'MessageSynced'>, 'id' | 'thread_id'> & {
  /** The thread's first message; null: this message starts a thread (its id becomes the thread id). */
  thread_id: number | null;
};

export function syncMessage(context: CommandContext, input: MessageInput) {
  return create(context, mailCategories.message, messageDecider, async (id) => {
    const message = { ...input, id, thread_id: input.thread_id ?? id };
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

export type CalendarEventInput = Omit<Data<'CalendarEventScheduled'>, 'id'>;

export function scheduleEvent(context: CommandContext, event: CalendarEventInput) {
  return create(context, mailCategories.event, calendarDecider, async (id) => ({
    type: 'ScheduleEvent' as const,
    event: { id, ...event },
    messageMailbox:
      event.message_id === null
        ? undefined
        : (await created<'MessageSynced'>(context, mailStreams.message(event.message_id)))?.mailbox,
  }));
}
