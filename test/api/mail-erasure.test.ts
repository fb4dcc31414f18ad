import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { createIdentity } from '../../src/api/kit/identity';
import { mailModule } from '../../src/api/mail';
import { operatorContext } from '../../src/cli/common';
import {
  addContact,
  syncMessage,
  type ContactDirectory,
  type MessageInput,
} from '../../src/commands/mail/handlers';
import { eraseSubject } from '../../src/privacy/erase';
import { ERASED_TEXT } from '../../src/privacy/sealed-value';
import type { SeedContext } from '../../src/seed/context';
import { openModule, type ModuleHarness } from '../support/module-harness';

/**
 * A mail contact's name and address on every message to or from them, and the body and snippet of what
 * they sent, are theirs: erasing the contact erases them there too (issue 49, leak 4).
 */

const SALES = 'sales@northwind.example';
const KATRIN = { name: 'Katrin Quorlane', email: 'katrin.quorlane@nordlicht.example' };
const ME = { name: 'Northwind Sales', email: SALES };
const OTHER = { name: 'Daan Bakker', email: 'daan@polaris.example' };

const message = (overrides: Partial<MessageInput>): MessageInput => ({
  mailbox: SALES,
  thread_id: null,
  in_reply_to: null,
  internet_message_id: '<m@nordlicht.example>',
  subject: 'Pricing for HR Suite',
  from: KATRIN,
  to: [ME],
  cc: [],
  bcc: [],
  date: '2026-10-28T09:00:00Z',
  snippet: 'Quorlane here: we are evaluating',
  body: 'Quorlane here: we are evaluating HR Suite.',
  label_ids: [],
  unread: false,
  starred: false,
  attachments: [],
  ...overrides,
});

async function fixtures({ commands }: SeedContext) {
  const { id: katrin } = await addContact(commands, {
    mailbox: SALES,
    given_name: 'Katrin',
    surname: 'Quorlane',
    emails: [{ email: KATRIN.email, type: 'work' }],
    phone_numbers: [],
    company_name: 'Nordlicht',
    job_title: null,
    notes: null,
    source: 'address_book',
  });
  const directory: ContactDirectory = (mailbox, email) =>
    mailbox === SALES && email.toLowerCase() === KATRIN.email ? katrin : undefined;
  const { id: inbound } = await syncMessage(commands, message({}), directory);
  const { id: outbound } = await syncMessage(
    commands,
    message({
      from: ME,
      to: [KATRIN],
      cc: [OTHER],
      subject: 'Re: Pricing',
      body: 'Our offer.',
      snippet: 'Our offer.',
    }),
    directory,
  );
  return { katrin, inbound, outbound };
}

let h: ModuleHarness<Awaited<ReturnType<typeof fixtures>>>;
beforeAll(async () => {
  h = await openModule(mailModule, { fixtures });
  h.suite.erasures.start();
  const { katrin } = h.fixtures;
  await eraseSubject(operatorContext(h.suite), h.suite.subjectKeys, `mail.contact-${katrin}`, 'Art. 17');
  for (const started = Date.now(); Date.now() - started < 10_000;) {
    const read = await request(h.app).get(`/api/v1/messages/${h.fixtures.inbound}`);
    if (read.body.from_email === ERASED_TEXT) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
afterAll(() => h.close());

describe('erasing a mail contact', () => {
  it('erases their name, address, body and snippet on what they sent', async () => {
    const read = await request(h.app).get(`/api/v1/messages/${h.fixtures.inbound}`).expect(200);
    expect(read.body).toMatchObject({
      from_name: ERASED_TEXT,
      from_email: ERASED_TEXT,
      from_contact_id: h.fixtures.katrin,
      body: ERASED_TEXT,
      snippet: ERASED_TEXT,
      subject: 'Pricing for HR Suite',
      to: [{ ...ME, contact_id: null }],
    });
  });

  it('erases their name and address on what was sent to them, and nobody else’s', async () => {
    const read = await request(h.app).get(`/api/v1/messages/${h.fixtures.outbound}`).expect(200);
    expect(read.body).toMatchObject({
      from_name: ME.name,
      body: 'Our offer.',
      to: [{ name: ERASED_TEXT, email: ERASED_TEXT, contact_id: h.fixtures.katrin }],
      cc: [{ ...OTHER, contact_id: null }],
    });
  });

  it('shows the erasure in the history of each message that held their data: when, by whom, why', async () => {
    const AUDITOR = 'auditor-token-mail-erasure';
    const audit = createAuditApp(
      { ...h.suite, config: { apiToken: undefined } },
      AUDITOR,
      undefined,
      createIdentity({ auditToken: AUDITOR }),
    );
    for (const id of [h.fixtures.inbound, h.fixtures.outbound]) {
      const history = await request(audit)
        .get(`/api/v1/history/mail/messages/${id}`)
        .set('Authorization', `Bearer ${AUDITOR}`)
        .expect(200);
      const steps = history.body.data.events as {
        event: { type: string; data: unknown; metadata: unknown };
      }[];
      expect(steps.map(({ event }) => event.type)).toEqual(['MessageSynced', 'SubjectErased']);
      expect(steps[1]?.event).toMatchObject({
        data: {
          subject: `mail.contact-${h.fixtures.katrin}`,
          reason: 'Art. 17',
          erased_on: expect.any(String),
        },
        metadata: { actor: expect.stringMatching(/^os:/) },
      });
      expect(JSON.stringify(history.body)).not.toContain('Quorlane');
    }
  });

  it('leaves nothing of theirs in the list, a search, or the log as auditors read it', async () => {
    for (const text of ['quorlane', 'Quorlane']) {
      expect(JSON.stringify((await request(h.app).get('/api/v1/messages?limit=50')).body)).not.toContain(
        text,
      );
      expect((await request(h.app).get(`/api/v1/messages?q=${text}`)).body.meta.total).toBe(0);
      const log = await h.suite.auditEvents.queryLog({ module: 'mail', after: 0, limit: 100 });
      expect(JSON.stringify(log)).not.toContain(text);
    }
  });
});
