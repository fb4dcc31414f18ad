import { isoTimestamp } from '../clock';
import {
  addContact,
  createLabel,
  scheduleEvent,
  syncMessage,
  updateMessage,
  type ContactDirectory,
  type MessageChange,
  type MessageInput,
} from '../commands/mail/handlers';
import { SYSTEM_LABELS } from '../events/mail';
import type { SeedContext } from './context';
import { COMPANY_STEMS, COUNTRIES, INDUSTRY_WORDS, type CountrySeed } from './crm-data';
import {
  CLIENT_LABELS,
  COLLEAGUES,
  LABEL_COLOURS,
  LOCATIONS,
  MAILBOXES,
  MEETINGS,
  NOTIFICATIONS,
  PRODUCTS,
  PROJECTS,
  ROLES,
  THREADS,
  USER_LABELS,
  type MailboxKind,
  type MailboxSeed,
  type ThreadTemplate,
} from './mail-data';
import { slugify, sample, writeInGroups, writeTimeline, type TimelineStep } from './toolkit';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The day the mailboxes were connected: the first sync brought in their history since March. */
const CONNECTED = new Date('2026-05-04T08:00:00Z').getTime();
const HISTORY_FROM = new Date('2026-03-02T07:00:00Z').getTime();
const SEED_END = new Date('2026-11-20T17:00:00Z').getTime();

const THREAD_COUNT: Record<MailboxKind, number> = {
  sales: 140,
  support: 155,
  billing: 100,
  hr: 90,
  personal: 85,
};
const NOTIFICATION_COUNT: Record<MailboxKind, number> = {
  sales: 25,
  support: 20,
  billing: 20,
  hr: 20,
  personal: 70,
};
const CONTACT_COUNT: Record<MailboxKind, number> = {
  sales: 60,
  support: 60,
  billing: 50,
  hr: 50,
  personal: 40,
};
const EVENT_COUNT = 50;

type Random = SeedContext['random'];

interface Person {
  name: string;
  first: string;
  last: string;
  email: string;
  company: string | null;
}

interface Mailbox {
  seed: MailboxSeed;
  labels: Map<string, number>;
  companies: string[];
  people: Person[];
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
};

function companies(random: Random, count: number): { name: string; country: CountrySeed }[] {
  const names = new Set<string>();
  const found: { name: string; country: CountrySeed }[] = [];
  while (found.length < count) {
    const country = random.pick(COUNTRIES);
    const words = INDUSTRY_WORDS[random.pick(Object.keys(INDUSTRY_WORDS))] ?? ['Group'];
    const name = `${random.pick(COMPANY_STEMS)} ${random.pick(words)}`;
    if (names.has(name)) continue;
    names.add(name);
    found.push({ name, country });
  }
  return found;
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
}

/** One conversation of a mailbox: its messages with their times, from a template. */
function planThread(random: Random, mailbox: Mailbox, template: ThreadTemplate, start: number) {
  const colleagues = mailbox.people.filter((candidate) => candidate.company === 'Northwind');
  const outside = mailbox.people.filter((candidate) => candidate.company !== 'Northwind');
  const person = random.pick(template.internal ? colleagues : outside);
  const n = String(random.int(1000, 9999));
  const v = random.int(2, 6);
  const values: Record<string, string> = {
    company: person.company ?? 'Northwind',
    product: random.pick(PRODUCTS),
    n,
    first: person.first,
    last: person.last,
    date: new Date(start + random.int(5, 40) * DAY).toISOString().slice(0, 10),
    role: random.pick(ROLES),
    project: random.pick(PROJECTS),
    v: String(v),
    v2: String(v + 1),
  };
  let at = start;
  const messages = [];
  for (const message of template.messages) {
    if (at > SEED_END) break;
    messages.push({
      ...message,
      at,
      body: fill(message.body, values),
      attachment: message.attachment && fill(message.attachment, values),
    });
    at += random.float() < 0.6 ? random.int(1, 8) * HOUR : random.int(1, 4) * DAY;
  }
  return { mailbox, person, subject: fill(template.subject, values), labels: template.labels, messages };
}

type ThreadPlan = ReturnType<typeof planThread> & { ids: number[]; spam?: boolean };

/**
 * The mailbox's demo data: six team and personal mailboxes with their labels and contacts, about
 * 2,100 messages in conversations (history since March, synced when the mailboxes were connected on
 * 2026-05-04, then live), later reads and labels, and the calendars around them.
 */
export async function seedMailbox(seed: SeedContext): Promise<void> {
  const { random } = seed;
  const mailboxes: Mailbox[] = MAILBOXES.map((mailbox) => ({
    seed: mailbox,
    labels: new Map(),
    companies: [],
    people: [],
  }));

  // Labels: the system labels, the team's own, and one per client for the client-facing teams.
  const labelPlans = mailboxes.flatMap((mailbox) => {
    const clients = companies(random, Math.max(CLIENT_LABELS[mailbox.seed.kind], 12));
    mailbox.companies = clients.map((client) => client.name);
    const clientLabels = clients
      .slice(0, CLIENT_LABELS[mailbox.seed.kind])
      .map((client) => `Clients/${client.name}`);
    return [
      ...SYSTEM_LABELS.map((name) => ({ mailbox, name, system: true })),
      ...[...USER_LABELS[mailbox.seed.kind], ...clientLabels].map((name) => ({
        mailbox,
        name,
        system: false,
      })),
    ];
  });
  const labelIds = await writeInGroups(
    seed,
    labelPlans,
    () => new Date(CONNECTED),
    (commands, label) => {
      const [background, text] = label.system ? [null, null] : random.pick(LABEL_COLOURS);
      return createLabel(commands, {
        mailbox: label.mailbox.seed.address,
        name: label.name,
        type: label.system ? 'system' : 'user',
        background_color: background,
        text_color: text,
        label_list_visibility: label.system
          ? 'labelShow'
          : random.weighted({ labelShow: 70, labelShowIfUnread: 20, labelHide: 10 }),
        message_list_visibility: random.weighted({ show: 90, hide: 10 }),
      });
    },
  );
  labelPlans.forEach((label, index) =>
    label.mailbox.labels.set(label.name, (labelIds[index] as { id: number }).id),
  );

  // Contacts: people at the mailbox's companies, and colleagues from the company directory.
  const contactPlans = mailboxes.flatMap((mailbox) => {
    const emails = new Set<string>();
    const plans = [];
    for (const colleague of mailbox.seed.kind === 'personal' || mailbox.seed.kind === 'hr'
      ? COLLEAGUES
      : COLLEAGUES.slice(0, 3)) {
      const [first, ...rest] = colleague.name.split(' ');
      plans.push({
        mailbox,
        first: first as string,
        last: rest.join(' '),
        email: colleague.email,
        company: 'Northwind',
        job_title: colleague.job_title,
        source: 'domain' as const,
        phone: null as string | null,
      });
    }
    while (plans.length < CONTACT_COUNT[mailbox.seed.kind]) {
      const country = random.pick(COUNTRIES);
      const index = random.int(0, country.firstNames.length - 1);
      const first = country.firstNames[index] as string;
      const last = random.pick(country.lastNames);
      const company = random.pick(mailbox.companies);
      const email = `${slugify(first, '')}.${slugify(last, '')}@${slugify(company, '')}.example`;
      if (emails.has(email)) continue;
      emails.add(email);
      plans.push({
        mailbox,
        first,
        last,
        email,
        company,
        job_title: random.pick([
          'CIO',
          'IT Manager',
          'Head of Procurement',
          'Accounts Payable',
          'Office Manager',
          'Project Lead',
          'Controller',
          'HR Manager',
        ]),
        source: random.weighted({ address_book: 55, inbox: 45 }),
        phone: random.chance(0.6)
          ? `${country.phone} ${random.int(20, 99)} ${random.int(1_000_000, 9_999_999)}`
          : null,
      });
    }
    return plans;
  });
  for (const plan of contactPlans) {
    plan.mailbox.people.push({
      name: `${plan.first} ${plan.last}`,
      first: plan.first,
      last: plan.last,
      email: plan.email,
      company: plan.company,
    });
  }
  const contactIds = await writeInGroups(
    seed,
    contactPlans,
    () => new Date(CONNECTED),
    (commands, plan) =>
      addContact(commands, {
        mailbox: plan.mailbox.seed.address,
        given_name: plan.first,
        surname: plan.last,
        emails: [{ email: plan.email, type: 'work' }],
        phone_numbers: plan.phone
          ? [{ number: plan.phone, type: random.pick(['work', 'mobile'] as const) }]
          : [],
        company_name: plan.company,
        job_title: plan.job_title,
        notes: random.chance(0.1) ? 'Met at the Northwind Summit.' : null,
        source: plan.source,
      }),
  );

  // Each message and invitation names the contacts its addresses are, as the mailbox knows them.
  const contactOf = new Map(
    contactPlans.map((plan, index) => [
      addressKey(plan.mailbox.seed.address, plan.email),
      (contactIds[index] as { id: number }).id,
    ]),
  );
  const directory: ContactDirectory = (mailbox, email) => contactOf.get(addressKey(mailbox, email));

  // Conversations, written message by message: the first message of every thread, then the second...
  const threads: ThreadPlan[] = mailboxes.flatMap((mailbox) =>
    Array.from({ length: THREAD_COUNT[mailbox.seed.kind] }, () => {
      const start = HISTORY_FROM + random.float() * (SEED_END - HISTORY_FROM - 2 * HOUR);
      return { ...planThread(random, mailbox, random.pick(THREADS[mailbox.seed.kind]), start), ids: [] };
    }),
  );
  const notifications: ThreadPlan[] = mailboxes.flatMap((mailbox) =>
    Array.from({ length: NOTIFICATION_COUNT[mailbox.seed.kind] }, () => {
      const note = random.pick(NOTIFICATIONS);
      const at = HISTORY_FROM + random.float() * (SEED_END - HISTORY_FROM);
      const person = { name: note.from, first: note.from, last: '', email: note.email, company: null };
      const labels = note.spam ? ['SPAM'] : note.label && mailbox.labels.has(note.label) ? [note.label] : [];
      return {
        mailbox,
        person,
        subject: note.subject,
        labels,
        messages: [{ from: 'in' as const, body: note.body, at, attachment: undefined }],
        ids: [],
        spam: note.spam,
      };
    }),
  );
  const all = [...threads, ...notifications];
  const steps: TimelineStep[] = [];
  const longest = Math.max(...all.map((thread) => thread.messages.length));
  for (let position = 0; position < longest; position++) {
    const batch = all
      .filter((thread) => thread.messages.length > position)
      .sort((a, b) => (a.messages[position]?.at ?? 0) - (b.messages[position]?.at ?? 0));
    const ids = await writeInGroups(
      seed,
      batch,
      (thread) =>
        new Date(Math.max(CONNECTED, Math.floor((thread.messages[position]?.at ?? 0) / 1000) * 1000)),
      (commands, thread) => syncMessage(commands, messageInput(random, thread, position, steps), directory),
    );
    batch.forEach((thread, index) => thread.ids.push((ids[index] as { id: number }).id));
  }
  await writeTimeline(seed, steps);

  // Calendars: meetings around the demo date, some of them invitations that came by mail.
  const eventPlans = mailboxes.flatMap((mailbox) =>
    Array.from({ length: EVENT_COUNT }, () =>
      planEvent(
        random,
        mailbox,
        threads.filter((thread) => thread.mailbox === mailbox),
      ),
    ),
  );
  await writeInGroups(
    seed,
    eventPlans,
    (plan) => new Date(plan.created),
    (commands, plan) => scheduleEvent(commands, plan.event, directory),
  );

  function messageInput(
    random: Random,
    thread: ThreadPlan,
    position: number,
    later: TimelineStep[],
  ): MessageInput {
    const { mailbox, person } = thread;
    const message = thread.messages[position] as ThreadPlan['messages'][number];
    const inbound = message.from === 'in';
    const me = {
      name:
        mailbox.seed.kind === 'personal'
          ? mailbox.seed.name
          : `${mailbox.seed.signature} (${mailbox.seed.name})`,
      email: mailbox.seed.address,
    };
    const them = { name: person.name, email: person.email };
    const recent = SEED_END - message.at < 5 * DAY;
    const archived = !recent && random.chance(0.55);
    const system = thread.spam ? ['SPAM'] : inbound ? (archived ? [] : ['INBOX']) : ['SENT'];
    const clientLabel = person.company ? `Clients/${person.company}` : null;
    const userLabels = [
      ...thread.labels.filter((name) => name !== 'SPAM'),
      ...(clientLabel && mailbox.labels.has(clientLabel) ? [clientLabel] : []),
    ];
    const names = [...system, ...(inbound && random.chance(0.15) ? ['IMPORTANT'] : []), ...userLabels];
    const label_ids = names
      .map((name) => mailbox.labels.get(name))
      .filter((id): id is number => id !== undefined);
    const unread = inbound && (recent ? random.chance(0.7) : random.chance(0.03));
    const readLater = inbound && !unread && random.chance(0.12);
    const body = `${inbound ? `Hello,\n\n` : `Hi ${person.first},\n\n`}${message.body}\n\n${inbound ? `Best regards,\n${person.name}` : `Kind regards,\n${mailbox.seed.signature}`}`;
    const extension = message.attachment?.split('.').pop() ?? '';
    const key = `${mailbox.seed.address}:${thread.subject}:${position}:${message.at}`;
    if (readLater || random.chance(0.04)) {
      const change: MessageChange = readLater ? { unread: false } : { starred: true };
      const followUp = mailbox.labels.get('Follow up');
      if (!readLater && followUp && random.chance(0.5)) change.add_label_ids = [followUp];
      later.push({
        at: new Date(Math.min(SEED_END, message.at + random.int(1, 48) * HOUR)),
        key,
        write: (commands) => updateMessage(commands, thread.ids[position] as number, change),
      });
    }
    return {
      mailbox: mailbox.seed.address,
      thread_id: position === 0 ? null : (thread.ids[0] as number),
      in_reply_to: position === 0 ? null : (thread.ids[position - 1] as number),
      internet_message_id: `<${random.uuid()}@${inbound ? (person.email.split('@')[1] ?? 'mail.example') : 'mail.northwind.example'}>`,
      subject: position === 0 ? thread.subject : `Re: ${thread.subject}`,
      from: inbound ? them : me,
      to: [inbound ? me : them],
      cc: random.chance(0.15) ? [random.pick(COLLEAGUES)].map(({ name, email }) => ({ name, email })) : [],
      bcc: [],
      date: isoTimestamp(new Date(Math.floor(message.at / 1000) * 1000)),
      snippet: message.body.length > 100 ? `${message.body.slice(0, 97)}...` : message.body,
      body,
      label_ids,
      unread: unread || readLater,
      starred: random.chance(0.03),
      attachments: message.attachment
        ? [
            {
              filename: message.attachment,
              content_type: CONTENT_TYPES[extension] ?? 'application/octet-stream',
              size: random.int(40, 4000) * 1024,
            },
          ]
        : [],
    };
  }
}

const addressKey = (mailbox: string, email: string) => `${mailbox}\n${email.toLowerCase()}`;

function planEvent(random: Random, mailbox: Mailbox, threads: readonly ThreadPlan[]) {
  const day = new Date('2026-09-01T00:00:00Z').getTime() + random.int(0, 136) * DAY;
  const weekday = new Date(day).getUTCDay();
  const date = weekday === 0 ? day + DAY : weekday === 6 ? day + 2 * DAY : day;
  const allDay = random.chance(0.03);
  const start = allDay ? date : date + (7 + random.int(0, 8)) * HOUR + random.pick([0, 30]) * 60_000;
  const minutes = random.pick([30, 30, 45, 60, 60, 90]);
  const person = random.pick(mailbox.people);
  const colleague = random.pick(COLLEAGUES);
  const title = allDay
    ? random.pick(['Company offsite', 'Northwind Summit', 'Team day'])
    : random
        .pick(MEETINGS[mailbox.seed.kind])
        .replace('{company}', person.company ?? 'Northwind')
        .replace('{role}', random.pick(ROLES))
        .replace('{colleague}', colleague.name)
        .replace('{project}', random.pick(PROJECTS));
  const online = random.chance(0.45);
  const me = { name: mailbox.seed.name, email: mailbox.seed.address };
  const external = !title.includes('review') && !title.includes('stand-up') && random.chance(0.6);
  const organizer = external && random.chance(0.4) ? { name: person.name, email: person.email } : me;
  const others = sample(random, mailbox.people, random.int(1, 5)).map((other) => ({
    name: other.name,
    email: other.email,
    status: random.weighted({ yes: 55, maybe: 10, no: 8, noreply: 27 }),
  }));
  const recurring = /review|stand-up|1:1|planning/.test(title) && random.chance(0.6);
  const invited =
    organizer !== me
      ? threads.flatMap((thread) => (thread.person.email === organizer.email ? thread.ids.slice(0, 1) : []))
      : [];
  return {
    created: Math.min(SEED_END, Math.max(CONNECTED, start - random.int(2, 30) * DAY)),
    event: {
      mailbox: mailbox.seed.address,
      calendar: recurring || organizer === me ? 'Primary' : random.pick(['Primary', 'Team calendar']),
      title,
      description: random.chance(0.6) ? `Agenda: ${title.toLowerCase()}, open questions, next steps.` : null,
      location: online ? 'Online' : random.pick(LOCATIONS),
      start: isoTimestamp(new Date(start)),
      end: isoTimestamp(new Date(allDay ? start + DAY : start + minutes * 60_000)),
      all_day: allDay,
      timezone: random.weighted({
        'Europe/Berlin': 45,
        'Europe/Amsterdam': 25,
        'Europe/Paris': 15,
        'Europe/Warsaw': 15,
      }),
      status: random.weighted({ confirmed: 85, tentative: 8, cancelled: 7 }),
      busy: !allDay || random.chance(0.5),
      visibility: random.weighted({ default: 80, private: 12, public: 8 }),
      organizer,
      participants: [
        { ...me, status: 'yes' as const },
        ...others.filter((other) => other.email !== me.email),
      ],
      recurrence: recurring
        ? [
            `RRULE:FREQ=WEEKLY;BYDAY=${['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'][new Date(start).getUTCDay()]}`,
          ]
        : null,
      conferencing_url: online ? `https://teams.example.com/l/meetup-join/${random.uuid()}` : null,
      message_id: invited[0] ?? null,
    },
  };
}
