import { MAILBOX_MANAGED_LABELS, type MailEvent, type MailEventOf } from '../../events/mail';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type MessageEvent = Extract<MailEvent, { type: `Message${string}` }>;

/** What a decision needs to know about a label it applies. */
export interface LabelFacts {
  mailbox: string;
  name: string;
  type: 'system' | 'user';
}

/** What a decision needs to know about a contact an address is said to be. */
export interface ContactFacts {
  mailbox: string;
  /** Its addresses, lower case. */
  emails: readonly string[];
}

/**
 * Each party said to be a contact is one: a contact of the same mailbox that lists the address. A
 * name or address keyed to the wrong contact would be erased with the wrong person.
 */
export function checkParties(
  field: string,
  parties: readonly { email: string; contact_id: number | null }[],
  contacts: ReadonlyMap<number, ContactFacts>,
  mailbox: string,
): void {
  for (const { email, contact_id } of parties) {
    if (contact_id === null) continue;
    const contact = contacts.get(contact_id);
    if (!contact) throw invalidField(field, `contact ${contact_id} does not exist`);
    if (contact.mailbox !== mailbox)
      throw invalidField(field, `contact ${contact_id} belongs to another mailbox`);
    if (!contact.emails.includes(email.toLowerCase())) {
      throw invalidField(field, `contact ${contact_id} has another address`);
    }
  }
}

export interface SyncMessage {
  type: 'SyncMessage';
  message: MailEventOf<'MessageSynced'>['data'];
  /** The first message of the thread (when this is a reply) and the message replied to. */
  thread: { mailbox: string } | undefined;
  repliedTo: { mailbox: string; thread_id: number } | undefined;
  labels: ReadonlyMap<number, LabelFacts>;
  /** The contacts the message's addresses are said to be. */
  contacts: ReadonlyMap<number, ContactFacts>;
}

/** A back-office change: apply and remove labels, mark read or unread, star or unstar. */
export interface UpdateMessage {
  type: 'UpdateMessage';
  add_label_ids?: readonly number[];
  remove_label_ids?: readonly number[];
  unread?: boolean;
  starred?: boolean;
  labels: ReadonlyMap<number, LabelFacts>;
}

export type MessageCommand = SyncMessage | UpdateMessage;
export type MessageState = {
  mailbox: string;
  label_ids: readonly number[];
  unread: boolean;
  starred: boolean;
} | null;

/** Each label must exist and belong to the message's mailbox; `managed` also refuses SENT and DRAFT. */
function checkLabels(
  field: string,
  ids: readonly number[],
  labels: ReadonlyMap<number, LabelFacts>,
  mailbox: string,
  managed: boolean,
): void {
  for (const id of ids) {
    const label = labels.get(id);
    if (!label) throw invalidField(field, `label ${id} does not exist`);
    if (label.mailbox !== mailbox) throw invalidField(field, `label ${id} belongs to another mailbox`);
    if (managed && label.type === 'system' && MAILBOX_MANAGED_LABELS.includes(label.name)) {
      throw invalidField(field, `${label.name} is applied by the mailbox itself`);
    }
  }
}

function sync(command: SyncMessage): MessageEvent[] {
  const { message } = command;
  if (message.thread_id !== message.id && command.thread?.mailbox !== message.mailbox) {
    throw invalidField('thread_id', `thread ${message.thread_id} is not in ${message.mailbox}`);
  }
  if (message.in_reply_to !== null) {
    const replied = command.repliedTo;
    if (replied?.mailbox !== message.mailbox || replied.thread_id !== message.thread_id) {
      throw invalidField('in_reply_to', `message ${message.in_reply_to} is not in this thread`);
    }
  }
  checkLabels('label_ids', message.label_ids, command.labels, message.mailbox, false);
  for (const field of ['from', 'to', 'cc', 'bcc'] as const) {
    const parties = field === 'from' ? [message.from] : message[field];
    checkParties(field, parties, command.contacts, message.mailbox);
  }
  return [{ type: 'MessageSynced', data: message }];
}

function update(command: UpdateMessage, state: NonNullable<MessageState>): MessageEvent[] {
  const add = [...new Set(command.add_label_ids ?? [])];
  const remove = [...new Set(command.remove_label_ids ?? [])];
  checkLabels('add_label_ids', add, command.labels, state.mailbox, true);
  checkLabels('remove_label_ids', remove, command.labels, state.mailbox, true);
  const both = add.filter((id) => remove.includes(id));
  if (both.length > 0) throw invalidField('remove_label_ids', `label ${both.join(', ')} is also added`);
  const events: MessageEvent[] = [
    ...add
      .filter((id) => !state.label_ids.includes(id))
      .map((label_id): MessageEvent => ({ type: 'MessageLabelApplied', data: { label_id } })),
    ...remove
      .filter((id) => state.label_ids.includes(id))
      .map((label_id): MessageEvent => ({ type: 'MessageLabelRemoved', data: { label_id } })),
  ];
  if (command.unread !== undefined && command.unread !== state.unread) {
    events.push({ type: 'MessageReadStateChanged', data: { unread: command.unread } });
  }
  if (command.starred !== undefined && command.starred !== state.starred) {
    events.push({ type: 'MessageStarChanged', data: { starred: command.starred } });
  }
  return events;
}

export const messageDecider: Decider<MessageCommand, MessageState, MessageEvent> = {
  initialState: () => null,
  evolve(state, event) {
    if (event.type === 'MessageSynced') {
      const { mailbox, label_ids, unread, starred } = event.data;
      return { mailbox, label_ids, unread, starred };
    }
    if (!state) return state;
    switch (event.type) {
      case 'MessageLabelApplied':
        return { ...state, label_ids: [...state.label_ids, event.data.label_id] };
      case 'MessageLabelRemoved':
        return { ...state, label_ids: state.label_ids.filter((id) => id !== event.data.label_id) };
      case 'MessageReadStateChanged':
        return { ...state, unread: event.data.unread };
      case 'MessageStarChanged':
        return { ...state, starred: event.data.starred };
    }
  },
  decide(command, state) {
    if (command.type === 'SyncMessage') {
      if (state) throw new DomainError('already_exists', `Message ${command.message.id} exists`);
      return sync(command);
    }
    if (!state) throw new DomainError('not_found', 'Message not found');
    return update(command, state);
  },
};
