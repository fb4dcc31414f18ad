import type { MailEventOf } from '../../events/mail';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';
import { checkParties, type ContactFacts } from './messages';

type LabelCreated = MailEventOf<'LabelCreated'>;
type ContactAdded = MailEventOf<'ContactAdded'>;
type EventScheduled = MailEventOf<'CalendarEventScheduled'>;

export type CreateLabel = { type: 'CreateLabel'; label: LabelCreated['data'] };

export const labelDecider: Decider<CreateLabel, { exists: boolean }, LabelCreated> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ label }, state) {
    if (state.exists) throw new DomainError('already_exists', `Label ${label.id} exists`);
    if ((label.type === 'system') !== (label.background_color === null)) {
      throw invalidField('background_color', 'user labels have a colour, system labels none');
    }
    return [{ type: 'LabelCreated', data: label }];
  },
};

export type AddContact = { type: 'AddContact'; contact: ContactAdded['data'] };

export const contactDecider: Decider<AddContact, { exists: boolean }, ContactAdded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ contact }, state) {
    if (state.exists) throw new DomainError('already_exists', `Contact ${contact.id} exists`);
    return [{ type: 'ContactAdded', data: contact }];
  },
};

export type ScheduleEvent = {
  type: 'ScheduleEvent';
  event: EventScheduled['data'];
  /** The contacts the organizer and participants are said to be. */
  contacts: ReadonlyMap<number, ContactFacts>;
  /** Mailbox of the invitation message; `undefined`: no such message. */
  messageMailbox: string | undefined;
};

export const calendarDecider: Decider<ScheduleEvent, { exists: boolean }, EventScheduled> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ event, contacts, messageMailbox }, state) {
    if (state.exists) throw new DomainError('already_exists', `Event ${event.id} exists`);
    if (event.end < event.start) throw invalidField('end', 'must not be before start');
    if (event.message_id !== null && messageMailbox !== event.mailbox) {
      throw invalidField('message_id', `message ${event.message_id} is not in ${event.mailbox}`);
    }
    checkParties('organizer', [event.organizer], contacts, event.mailbox);
    checkParties('participants', event.participants, contacts, event.mailbox);
    return [{ type: 'CalendarEventScheduled', data: event }];
  },
};
