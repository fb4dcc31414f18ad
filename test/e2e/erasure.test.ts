import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MODULE_IDS } from '../../src/modules/ids';
import {
  runSuiteCli,
  startSuiteProcess,
  stopSuiteProcess,
  type SuiteProcess,
} from '../support/suite-process';
import { eventually } from '../support/eventually';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(300_000);

const API_TOKEN = 'erasure-api-token-0001';
const AUDIT_TOKEN = 'erasure-audit-token-001';
const PORT = 18_661;
const port = (module: string) => PORT + MODULE_IDS.indexOf(module as (typeof MODULE_IDS)[number]);
const AUDIT = `http://127.0.0.1:${PORT + 10}`;

let dir: string;
let cleanup: () => void;
/** Beside the data directory: exports and replays, made fresh by each run. */
let scratch: ReturnType<typeof tempDir>;
let suite: SuiteProcess | undefined;
const env = () => ({ SUITE_DATA_DIR: dir, SUITE_API_TOKEN: API_TOKEN, SUITE_AUDIT_TOKEN: AUDIT_TOKEN });

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  scratch = tempDir('suite-erasure-scratch-');
});
afterAll(async () => {
  await stop();
  cleanup();
  scratch.cleanup();
});

async function stop() {
  if (!suite) return;
  expect(await stopSuiteProcess(suite)).toBe(0);
  suite = undefined;
}

const cli = (...args: string[]) => runSuiteCli(env(), ...args);
/** `suite <args>` in a process of its own, this one going on meanwhile: its status and output. */
const cliInBackground = (...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [SUITE_CLI, ...args], {
      env: { ...process.env, SUITE_LOG_LEVEL: 'warn', ...env() },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

/**
 * `fetch`, tried again once on a kept-alive connection the suite closed while a `cli` run (synchronous)
 * held this process longer than the server keeps an idle connection.
 */
async function fetchAgain(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

const get = async (url: string) => (await fetchAgain(url)).text();
const audit = async (route: string) =>
  (await fetchAgain(`${AUDIT}${route}`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } })).text();

/** Every list of every module that takes no path parameter, searched for `text` (the market takes a session: left out). */
async function listsFinding(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const module of MODULE_IDS.filter((id) => id !== 'market')) {
    const base = `http://127.0.0.1:${port(module)}`;
    const { paths } = JSON.parse(await get(`${base}/api/openapi.json`)) as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    for (const route of Object.keys(paths).filter((route) => paths[route]?.get && !route.includes('{'))) {
      // Searched where the list takes `q`, else read whole: a parameter it does not take is refused.
      const taken = new Set(
        paths[route]?.get?.parameters?.filter((p) => p.in === 'query').map((p) => p.name),
      );
      const query = new URLSearchParams();
      if (taken.has('q')) query.set('q', text);
      if (taken.has('limit')) query.set('limit', '100');
      const answer = await get(`${base}${route}?${query.toString()}`);
      if (answer.toLowerCase().includes(text.toLowerCase())) found.push(`${module} ${route}`);
    }
  }
  return found;
}

/** The files of the data directory holding `text`, as bytes. */
const filesHolding = (text: string) =>
  readdirSync(dir).filter((file) => readFileSync(path.join(dir, file)).includes(Buffer.from(text)));

describe('erasing a data subject, as a new user would', () => {
  it('leaves nothing of an employee readable, while writes go on, and keeps the log and its proofs intact', async () => {
    suite = await startSuiteProcess(env(), PORT, { waitMs: 120_000 });
    const employee = JSON.parse(await get(`http://127.0.0.1:${port('hrm')}/api/v1/employees/1`)) as {
      first_name: string;
      last_name: string;
      company_email: string;
    };
    const name = `${employee.first_name} ${employee.last_name}`;
    // Before: only the read models hold it in clear (the log and the keys never do).
    expect(filesHolding(employee.company_email).every((file) => file.startsWith('read-models.db'))).toBe(
      true,
    );
    expect(await listsFinding(employee.company_email)).not.toEqual([]);

    let writing = true;
    const writes = (async () => {
      for (let n = 0; writing; n++) {
        const answer = await fetchAgain(`http://127.0.0.1:${port('esm')}/api/v1/requests`, {
          method: 'POST',
          headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Badge ${n}`, status: 'Open', priority: 'Low' }),
        });
        expect(answer.status).toBe(201);
      }
    })();
    const erased = cli('erase', 'hrm.employee-1', '--reason', 'Art. 17 request');
    expect(erased).toMatchObject({ status: 0, stdout: 'hrm.employee-1 erased (erasure 1).\n' });
    const after = await eventually(
      'the employee to read erased',
      () => get(`http://127.0.0.1:${port('hrm')}/api/v1/employees/1`),
      (text) => text.includes('[erased]'),
      { intervalMs: 100 },
    );
    writing = false;
    await writes;
    expect(JSON.parse(after)).toMatchObject({
      first_name: '[erased]',
      last_name: '[erased]',
      company_email: '[erased]',
    });

    expect(await listsFinding(employee.company_email)).toEqual([]);
    expect(await listsFinding(name)).toEqual([]);
    const events = await audit('/api/v1/events?stream=hrm.employee-1');
    // The event as stored (sealed), its values read erased beside it.
    expect(events).toContain('"/first_name":"[erased]"');
    expect(events).not.toContain(employee.company_email);
    expect(await audit('/api/v1/history/hrm/employees/1')).not.toContain(employee.company_email);
    expect(JSON.parse(await audit('/api/v1/erasures'))).toMatchObject({
      data: [
        {
          id: 1,
          subject: 'hrm.employee-1',
          reason: 'Art. 17 request',
          erased_by: expect.stringMatching(/^os:/),
        },
      ],
    });
    expect(filesHolding(employee.company_email)).toEqual([]);
    expect(filesHolding(name)).toEqual([]);

    await stop();
    expect(cli('audit', 'verify').stdout).toContain('intact');
    expect(cli('rebuild').status).toBe(0);
    suite = await startSuiteProcess(env(), PORT, { waitMs: 60_000 });
    expect(await get(`http://127.0.0.1:${port('hrm')}/api/v1/employees/1`)).toContain(
      '"company_email":"[erased]"',
    );
    expect(filesHolding(employee.company_email)).toEqual([]);
  });

  it('leaves no plaintext of an employee once `suite erase` answers, while four clients record their attendance', async () => {
    const hrm = `http://127.0.0.1:${port('hrm')}`;
    const employee = JSON.parse(await get(`${hrm}/api/v1/employees/2`)) as { company_email: string };
    expect(filesHolding(employee.company_email)).not.toEqual([]);
    let erasing = true;
    const statuses: number[] = [];
    const client = async (offset: number) => {
      for (let day = 0; erasing && day < 300; day++) {
        const date = new Date(Date.UTC(2024, 0, 1 + offset * 300 + day)).toISOString().slice(0, 10);
        const answer = await fetch(`${hrm}/api/v1/attendance`, {
          method: 'POST',
          headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            employee_id: 2,
            attendance_date: date,
            status: 'Present',
            in_time: `${date}T09:00:00Z`,
            out_time: `${date}T17:00:00Z`,
            late_entry: false,
            early_exit: false,
          }),
        });
        statuses.push(answer.status);
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Another process than the suite's, while the writes go on (spawnSync would stop them).
    const erased = await cliInBackground('erase', 'hrm.employee-2', '--reason', 'Art. 17 request');
    const atAnswer = filesHolding(employee.company_email);
    const listed = await get(`${hrm}/api/v1/attendance?employee_id=2&limit=100`);
    erasing = false;
    await Promise.all(clients);
    expect(erased).toMatchObject({ status: 0, stdout: 'hrm.employee-2 erased (erasure 2).\n' });
    expect(atAnswer).toEqual([]);
    expect(
      JSON.parse(listed).data.filter(
        (record: { employee_name: string }) => record.employee_name !== '[erased]',
      ),
    ).toEqual([]);
    expect(statuses.filter((status) => ![201, 409, 422].includes(status))).toEqual([]);
    expect(await listsFinding(employee.company_email)).toEqual([]);
    expect(filesHolding(employee.company_email)).toEqual([]);
  });

  it("leaves not one word of what a subject said in the search indexes' files", async () => {
    const requests = `http://127.0.0.1:${port('esm')}/api/v1/requests`;
    const headers = { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' };
    const form = { employee: 'Zyxwvut Quorlane', email: 'zyxwvut.quorlane@example.com' };
    const posted = await fetch(requests, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: 'Laptop',
        status: 'Open',
        priority: 'Low',
        form_data: JSON.stringify(form),
      }),
    });
    const { id } = (await posted.json()) as { id: number };
    // A document replaced after the fact leaves its old text in the indexes until they are merged.
    const patched = await fetch(`${requests}/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ priority: 'High' }),
    });
    expect(patched.status).toBe(200);
    expect(filesHolding('quorlane').some((file) => file.startsWith('read-models.db'))).toBe(true);

    expect(cli('erase', `esm.request-${id}`, '--reason', 'Art. 17 request').status).toBe(0);
    const words = ['quorlane', 'Quorlane', 'zyxwvut', 'Zyxwvut'];
    const left = await eventually(
      'no file to hold the erased words',
      async () => words.flatMap((word) => filesHolding(word).map((file) => `${word} in ${file}`)),
      (found) => found.length === 0,
      { intervalMs: 100 },
    );
    expect(left).toEqual([]);
    expect(await get(`${requests}?q=quorlane`)).toContain('"total":0');
  });

  it('refuses a subject the suite holds no record of: exit 1, the nearest named, nothing recorded', async () => {
    const before = JSON.parse(await audit('/api/v1/erasures')).meta.total as number;
    for (const [typo, nearest] of [
      ['hrm.employe-42', 'hrm.employee-42'],
      ['hrm.employee-999999', 'hrm.employee-'],
      ['foo.bar-1', ''],
    ] as const) {
      const refused = cli('erase', typo, '--reason', 'Art. 17 request');
      expect(refused.status).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`holds no data of ${typo}`);
      expect(refused.stderr).toContain(nearest);
    }
    expect(JSON.parse(await audit('/api/v1/erasures')).meta.total).toBe(before);
  });

  it('leaves nothing of a mail contact on the messages to and from them, the log, exports and files', async () => {
    const mail = `http://127.0.0.1:${port('mail')}/api/v1`;
    type Contact = { id: number; display_name: string; email: string; source: string };
    type Message = {
      id: number;
      from_email: string;
      from_contact_id: number | null;
      body: string;
      snippet: string;
    };
    const contacts = (JSON.parse(await get(`${mail}/contacts?limit=200`)) as { data: Contact[] }).data;
    let chosen: { contact: Contact; messages: Message[] } | undefined;
    for (const contact of contacts.filter(({ source }) => source !== 'domain')) {
      const namesakes = JSON.parse(await get(`${mail}/contacts?q=${encodeURIComponent(contact.email)}`));
      const messages = JSON.parse(
        await get(`${mail}/messages?from_email=${encodeURIComponent(contact.email)}`),
      );
      if (namesakes.meta.total === 1 && messages.data.length > 0) {
        chosen = { contact, messages: messages.data as Message[] };
        break;
      }
    }
    if (!chosen) throw new Error('the demo mailbox has no contact who wrote');
    const { contact, messages } = chosen;
    const [message] = messages as [Message];
    expect(message.from_contact_id).toBe(contact.id);
    expect(filesHolding(contact.email).every((file) => file.startsWith('read-models.db'))).toBe(true);

    const erased = await fetchAgain(`${AUDIT}/api/v1/erasures`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: `mail.contact-${contact.id}`, reason: 'Art. 17 request' }),
    });
    expect(erased.status).toBe(201);

    // Folded again within a second of the answer.
    const read = JSON.parse(
      await eventually(
        'the message to read erased',
        () => get(`${mail}/messages/${message.id}`),
        (text) => text.includes('"from_email":"[erased]"'),
        { intervalMs: 100 },
      ),
    ) as Message & { from_name: string };
    expect(read).toMatchObject({
      from_name: '[erased]',
      from_email: '[erased]',
      body: '[erased]',
      snippet: '[erased]',
    });
    // The address is theirs alone; a namesake at another company may share the name.
    expect(await listsFinding(contact.email)).toEqual([]);
    const exported = path.join(scratch.dir, `mail-export-${contact.id}.ndjson`);
    expect(cli('audit', 'export', '--module', 'mail', '--format', 'ndjson', '--out', exported).status).toBe(
      0,
    );
    const events = cli('events', '--module', 'mail').stdout;
    for (const text of [contact.email, contact.display_name]) {
      for (const { id } of messages) {
        expect(await get(`${mail}/messages/${id}`)).not.toContain(text);
        expect(await audit(`/api/v1/events?stream=mail.message-${id}`)).not.toContain(text);
        expect(await audit(`/api/v1/history/mail/messages/${id}`)).not.toContain(text);
      }
    }
    expect(events).not.toContain(contact.email);
    expect(readFileSync(exported, 'utf8')).not.toContain(contact.email);
    expect(filesHolding(contact.email)).toEqual([]);
    const history = JSON.parse(await audit(`/api/v1/history/mail/messages/${message.id}`)) as {
      data: { events: { event: { type: string; data: Record<string, unknown> } }[] };
    };
    expect(history.data.events.map(({ event }) => event.type)).toEqual(
      expect.arrayContaining(['MessageSynced', 'SubjectErased']),
    );
    expect(history.data.events.find(({ event }) => event.type === 'SubjectErased')?.event.data).toMatchObject(
      {
        subject: `mail.contact-${contact.id}`,
        reason: 'Art. 17 request',
      },
    );

    await stop();
    const copy = path.join(scratch.dir, `replay-${contact.id}`);
    expect(cli('replay', '--until', '999999999', '--data-dir', copy, '--from', dir).status).toBe(0);
    const copied = readdirSync(copy).filter((file) =>
      readFileSync(path.join(copy, file)).includes(Buffer.from(contact.email)),
    );
    expect(copied).toEqual([]);
    suite = await startSuiteProcess(env(), PORT, { waitMs: 60_000 });
  });

  it('reads a subject whose key was lost as erased, never failing', async () => {
    await stop();
    const keys = new Database(path.join(dir, 'keys.db'));
    keys.prepare("DELETE FROM subject_keys WHERE subject = 'crm.contact-3'").run();
    keys.close();
    expect(cli('rebuild').status).toBe(0);
    suite = await startSuiteProcess(env(), PORT, { waitMs: 60_000 });
    const contact = JSON.parse(await get(`http://127.0.0.1:${port('crm')}/api/v1/contacts/3`)) as Record<
      string,
      unknown
    >;
    expect(contact).toMatchObject({ first_name: '[erased]', email: '[erased]', phone: null });
    expect(await audit('/api/v1/events?stream=crm.contact-3')).toContain('[erased]');
  });
});
