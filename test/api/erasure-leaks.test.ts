import type { RequestListener } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { keyCredentials } from '../support/key-credentials';
import { requireApproval } from '../../src/approvals/policies';
import { joinEmployee } from '../../src/commands/hrm/handlers';
import type { StoredEvent } from '../../src/events/envelope';
import { operatorContext } from '../../src/cli/common';
import { suiteCollections } from '../../src/main';
import { erasureDone } from '../../src/privacy/erase';
import { recordErasure } from '../../src/privacy/erasures';
import { SERVER_SECRET } from '../support/esm-harness';
import { employee, openHrm, TOKEN, workedDay, type HrmHarness } from '../support/hrm-harness';

/**
 * Erasure that leaves nothing behind (issue 49, leaks 1 to 3), on the embedded stores: a proposal's
 * body and result are sealed like the write they hold, a pending proposal naming a subject erased
 * since fails at approval, and an erasure racing writes leaves no plaintext of the subject anywhere
 * once it answers.
 */

jest.setTimeout(120_000);

const AUDIT_TOKEN = 'erasure-leaks-audit-token-01';
const ADMIN = TOKEN;
const { identity, credential } = keyCredentials(TOKEN, AUDIT_TOKEN);
const writer = credential('leave-clerk', ['hrm:writer']);
const approver = credential('hr-approver', ['hrm:approver', 'hrm:writer']);
const auditor = { Authorization: `Bearer ${AUDIT_TOKEN}` };

let h: HrmHarness;
let app: RequestListener;
let audit: ReturnType<typeof createAuditApp>;

beforeAll(async () => {
  h = await openHrm();
  app = createModuleApp(hrmModule, h.suite, { apiToken: TOKEN, sessionSecret: SERVER_SECRET, identity });
  audit = createAuditApp({ ...h.suite, config: { apiToken: ADMIN } }, AUDIT_TOKEN, undefined, identity);
  const { outcome } = await requireApproval(h.seed.commands, hrmModule, 'POST /api/v1/leave', 'hrm:approver');
  await h.suite.runtime.waitFor(outcome.events.at(-1)?.position ?? 0);
});
afterAll(() => h.close());

/** Erases on the audit API, as an administrator: answered once the erasure is done. */
const erase = (subject: string) =>
  request(audit)
    .post('/api/v1/erasures')
    .set({ Authorization: `Bearer ${ADMIN}` })
    .send({ subject, reason: 'Art. 17 request' });

/** The files of the data directory holding any of the texts, in any case (as raw bytes). */
function filesHolding(texts: readonly string[]): string[] {
  const dir = h.suite.config.dataDir;
  return readdirSync(dir).flatMap((file) => {
    const bytes = readFileSync(path.join(dir, file)).toString('latin1').toLowerCase();
    return texts.filter((text) => bytes.includes(text.toLowerCase())).map((text) => `${file}: ${text}`);
  });
}

/** Every document of every read model holding any of the texts (any case). */
async function documentsHolding(texts: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of suiteCollections(h.suite.modules)) {
    for (let offset = 0; ; offset += 500) {
      const { items } = await h.suite.readStore.find(name, { filters: [], limit: 500, offset });
      for (const item of items) {
        for (const text of texts)
          if (item.toLowerCase().includes(text.toLowerCase())) found.push(`${name}: ${text}`);
      }
      if (items.length < 500) break;
    }
  }
  return found;
}

/** The log as auditors, exports and histories read it: every event, opened. */
async function auditedLogHolding(texts: readonly string[]): Promise<string[]> {
  const events: StoredEvent[] = await h.suite.auditEvents.readAll({ after: 0, limit: 100_000 });
  return events.flatMap((event) => {
    const text = JSON.stringify(event.data).toLowerCase();
    return texts
      .filter((value) => text.includes(value.toLowerCase()))
      .map((value) => `${event.stream}@${event.revision}: ${value}`);
  });
}

describe('leak 1: a proposal and its events keep no personal data in clear', () => {
  it('shows the proposal, its events and the audit log erased after the employee is erased', async () => {
    const { grace } = h.fixtures;
    const description = 'Quokkaflu after the Lisbon conference';
    const proposed = await request(app)
      .post('/api/v1/leave')
      .set(writer)
      .send({
        employee_id: grace,
        leave_type: 'Sick Leave',
        from_date: '2026-11-30',
        to_date: '2026-11-30',
        half_day: false,
        half_day_date: null,
        description,
      })
      .expect(202);
    const stored = await h.suite.storedEvents.readStream(`approvals.proposal-${proposed.body.id}`);
    expect(JSON.stringify(stored[0]?.data)).not.toContain('Quokkaflu');

    const approved = await request(app).post(`/api/v1/proposals/${proposed.body.id}/approve`).set(approver);
    expect(approved.status).toBe(200);
    expect(approved.body.result).toMatchObject({ employee_name: 'Grace Hopper', description });
    const storedAll = await h.suite.storedEvents.readStream(`approvals.proposal-${proposed.body.id}`);
    expect(JSON.stringify(storedAll.map((event) => event.data))).not.toMatch(/Hopper|Quokkaflu/);

    expect((await erase(`hrm.employee-${grace}`)).status).toBe(201);

    const values = ['Grace Hopper', 'Hopper', 'Quokkaflu', 'grace@halcyon.example'];
    const proposal = await request(app)
      .get(`/api/v1/proposals/${proposed.body.id}`)
      .set(approver)
      .expect(200);
    expect(JSON.stringify(proposal.body)).not.toMatch(/Hopper|Quokkaflu/);
    expect(proposal.body.payload).toMatchObject({ employee_id: grace, description: '[erased]' });
    const events = await request(audit)
      .get(`/api/v1/events?stream=approvals.proposal-${proposed.body.id}`)
      .set(auditor);
    expect(events.status).toBe(200);
    expect(events.text).not.toMatch(/Hopper|Quokkaflu/i);
    expect(await auditedLogHolding(values)).toEqual([]);
    expect(await documentsHolding(values)).toEqual([]);
    expect(filesHolding(values)).toEqual([]);
  });
});

describe('leak 2: a pending proposal brings no erased data back', () => {
  it('fails at approval with 409 subject_erased, and its body reads erased', async () => {
    const { ada } = h.fixtures;
    const proposed = await request(app)
      .post('/api/v1/leave')
      .set(writer)
      .send({
        employee_id: ada,
        leave_type: 'Casual Leave',
        from_date: '2026-12-14',
        to_date: '2026-12-14',
        half_day: false,
        half_day_date: null,
        description: 'Zanzibarian tax appointment',
      })
      .expect(202);
    expect((await erase(`hrm.employee-${ada}`)).status).toBe(201);

    const approved = await request(app).post(`/api/v1/proposals/${proposed.body.id}/approve`).set(approver);
    expect(approved.status).toBe(409);
    expect(approved.body.error).toMatchObject({
      code: 'subject_erased',
      details: { subjects: [`hrm.employee-${ada}`], proposal: { status: 'failed' } },
    });
    const proposal = await request(app)
      .get(`/api/v1/proposals/${proposed.body.id}`)
      .set(approver)
      .expect(200);
    expect(proposal.body).toMatchObject({ status: 'failed', payload: { description: '[erased]' } });
    const search = await request(app).get('/api/v1/leave?q=Zanzibarian').set(writer).expect(200);
    expect(search.body.meta.total).toBe(0);
    const values = ['Zanzibarian', 'Lovelace'];
    expect(await auditedLogHolding(values)).toEqual([]);
    expect(await documentsHolding(values)).toEqual([]);
    expect(filesHolding(values)).toEqual([]);
  });
});

describe('leak 3: an erasure racing writes', () => {
  it('leaves no plaintext of the subject once it answers, whatever the writes did, after a rebuild too', async () => {
    const { id: hedy } = await joinEmployee(
      h.seed.commands,
      employee({
        first_name: 'Hedy',
        last_name: 'Quorvandel',
        company_email: 'hedy.quorvandel@halcyon.example',
      }),
    );
    await h.settle();
    const values = ['Hedy Quorvandel', 'Quorvandel', 'hedy.quorvandel@halcyon.example'];
    let erased = false;
    const statuses: number[] = [];
    const client = async (offset: number) => {
      for (let day = 0; day < 40 && !erased; day++) {
        const date = new Date(Date.UTC(2026, 0, 1 + offset * 40 + day)).toISOString().slice(0, 10);
        const answer = await request(app)
          .post('/api/v1/attendance')
          .set({ Authorization: `Bearer ${TOKEN}` })
          .send({
            ...workedDay(hedy),
            attendance_date: date,
            in_time: `${date}T08:55:00Z`,
            out_time: `${date}T17:25:00Z`,
          });
        statuses.push(answer.status);
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const erasure = await erase(`hrm.employee-${hedy}`);
    expect(erasure.status).toBe(201);
    // Once the erasure answered: nothing in clear, while the writes still run.
    const atAnswer = [...(await documentsHolding(values)), ...filesHolding(values)];
    erased = true;
    await Promise.all(clients);
    expect(atAnswer).toEqual([]);
    expect({ statuses }).toEqual({ statuses: expect.arrayContaining([201]) });
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);

    await h.settle();
    expect(await documentsHolding(values)).toEqual([]);
    const search = await request(app).get('/api/v1/attendance?q=Quorvandel').set(writer).expect(200);
    expect(search.body.meta.total).toBe(0);
    expect(await auditedLogHolding(values)).toEqual([]);
    // A write about the erased subject's data now is refused, and writes nothing.
    const late = await request(app)
      .post('/api/v1/attendance')
      .set({ Authorization: `Bearer ${TOKEN}` })
      .send({
        ...workedDay(hedy),
        attendance_date: '2026-06-01',
        in_time: '2026-06-01T08:55:00Z',
        out_time: '2026-06-01T17:25:00Z',
      });
    expect([201, 409]).toContain(late.status);
    if (late.status === 409) expect(late.body.error.code).toBe('subject_erased');

    await h.suite.runtime.rebuild();
    expect(await documentsHolding(values)).toEqual([]);
    await h.suite.readStore.purge();
    expect(filesHolding(values)).toEqual([]);
  });

  it('folds again a write projected with the key still remembered between the erasure and its keys going', async () => {
    const { id: nia } = await joinEmployee(
      h.seed.commands,
      employee({
        first_name: 'Nia',
        last_name: 'Brackenwhite',
        company_email: 'nia.brackenwhite@halcyon.example',
      }),
    );
    await h.settle();
    const subject = `hrm.employee-${nia}`;
    // The erasure is recorded; before its keys are gone, a write about the subject lands and is projected.
    const { outcome } = await recordErasure(operatorContext(h.suite), subject, 'Art. 17 request');
    await request(app)
      .post('/api/v1/attendance')
      .set({ Authorization: `Bearer ${TOKEN}` })
      .send(workedDay(nia))
      .expect(201);
    await h.settle();
    expect(await documentsHolding(['Brackenwhite'])).not.toEqual([]);
    await h.suite.subjectKeys.erase(subject);
    expect(await erasureDone(h.suite.readStore, outcome.events[0]!.position, 10_000)).toBe(true);
    expect(await documentsHolding(['Brackenwhite'])).toEqual([]);
    expect(filesHolding(['Brackenwhite'])).toEqual([]);
  });
});
