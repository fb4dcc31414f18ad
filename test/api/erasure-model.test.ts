import { readdirSync, readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { esmModule } from '../../src/api/esm';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import { createLogger } from '../../src/api/kit/logging';
import { requireApproval } from '../../src/approvals/policies';
import { copyLog } from '../../src/audit/replay';
import { operatorContext } from '../../src/cli/common';
import { addDepartment, addOrganization, joinEmployee } from '../../src/commands/hrm/handlers';
import { loadConfig } from '../../src/config';
import type { StoredEvent } from '../../src/events/envelope';
import { verifyLog } from '../../src/events/verify';
import type { Principal, Role } from '../../src/iam/principal';
import { openSuite, startProjecting, suiteCollections, type Suite } from '../../src/main';
import { eraseSubject, erasureDone } from '../../src/privacy/erase';
import { createSeedContext } from '../../src/seed/context';
import { SERVER_SECRET } from '../support/esm-harness';
import { tempDir } from '../support/temp-dir';

/**
 * The invariant of erasure (issue 49), model-based: steps drawn at random (employees joining, their
 * attendance and leave, leave under an approval policy with its proposals approved or rejected, service
 * requests with a requester's form, erasures through the audit API and as `suite erase` does them,
 * restarts, rebuilds, replays, parked-event retries) run on the embedded stores; after every step no
 * value of an erased subject is in any answer of the APIs (lists, records, `q=`, proposals, the audit
 * log and histories), any document of any read model, any file of the data directory (raw bytes, any
 * case), or the log as exports read it, and every value of a subject not erased is still there.
 */

jest.setTimeout(120_000);

const TOKEN = 'erasure-model-token-0001';
const AUDIT_TOKEN = 'erasure-model-audit-01';
const principals: Record<string, Principal> = {};
const credential = (name: string, roles: Role[]) => {
  principals[name] = { id: `key:${name}`, kind: 'key', name, roles, person: name };
  return { Authorization: `Bearer ${name}` };
};
const identity = createIdentity({
  apiToken: TOKEN,
  auditToken: AUDIT_TOKEN,
  authenticators: [async (token) => principals[token] ?? null],
});
const clerk = credential('model-clerk', ['hrm:writer']);
const approver = credential('model-approver', ['hrm:approver', 'hrm:writer']);
const admin = { Authorization: `Bearer ${TOKEN}` };
const auditor = { Authorization: `Bearer ${AUDIT_TOKEN}` };

/** Distinctive words, one per value: found only where that value went. */
const word = (kind: string, n: number) => `Zq${kind}${String.fromCharCode(97 + (n % 26))}${n}xv`;

type Step =
  | { kind: 'join' }
  | { kind: 'attendance'; who: number }
  | { kind: 'leave'; who: number }
  | { kind: 'policy' }
  | { kind: 'decide'; which: number; approve: boolean }
  | { kind: 'request' }
  | { kind: 'erase'; who: number; through: 'api' | 'cli' }
  | { kind: 'restart' }
  | { kind: 'rebuild' }
  | { kind: 'replay' }
  | { kind: 'retry' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'join' as const }), weight: 3 },
  { arbitrary: fc.nat(9).map((who) => ({ kind: 'attendance' as const, who })), weight: 2 },
  { arbitrary: fc.nat(9).map((who) => ({ kind: 'leave' as const, who })), weight: 3 },
  { arbitrary: fc.constant({ kind: 'policy' as const }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('decide' as const), which: fc.nat(9), approve: fc.boolean() }),
    weight: 2,
  },
  { arbitrary: fc.constant({ kind: 'request' as const }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('erase' as const),
      who: fc.nat(9),
      through: fc.constantFrom('api' as const, 'cli' as const),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'rebuild' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'replay' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'retry' as const }), weight: 1 },
);

/** A subject and the values of it the suite was given. */
interface Person {
  subject: string;
  values: string[];
  erased: boolean;
}

interface Running {
  suite: Suite;
  hrm: RequestListener;
  esm: RequestListener;
  audit: ReturnType<typeof createAuditApp>;
}

async function open(dir: string): Promise<Running> {
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  const suite = await openSuite(config, { logger: createLogger('silent'), modules: [hrmModule, esmModule] });
  await startProjecting(suite);
  const settings = { apiToken: TOKEN, sessionSecret: SERVER_SECRET, identity };
  return {
    suite,
    hrm: createModuleApp(hrmModule, suite, settings),
    esm: createModuleApp(esmModule, suite, settings),
    audit: createAuditApp({ ...suite, config: { apiToken: TOKEN } }, AUDIT_TOKEN, undefined, identity),
  };
}

const lower = (text: string) => text.toLowerCase();

/** The files under `dir` (one level of directories deep) as lower-cased latin1 text, by name. */
function filesOf(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesOf(file);
    return [{ file, text: lower(readFileSync(file).toString('latin1')) }];
  });
}

/** Every text the suite answers or keeps, by where: API answers, read models, the opened log, files. */
async function everything(run: Running, dir: string, people: readonly Person[]) {
  const places: { where: string; text: string }[] = [];
  const add = (where: string, text: string) => places.push({ where, text: lower(text) });
  for (const [app, paths] of [
    [run.hrm, ['/api/v1/employees', '/api/v1/leave', '/api/v1/attendance', '/api/v1/proposals']],
    [run.esm, ['/api/v1/requests']],
  ] as const) {
    for (const route of paths) {
      add(route, (await request(app).get(`${route}?limit=100`).set(approver)).text);
      for (const { values } of people) {
        for (const value of values.slice(0, 1)) {
          add(
            `${route}?q=${value}`,
            (await request(app).get(`${route}?q=${value}&limit=100`).set(approver)).text,
          );
        }
      }
    }
  }
  for (const { subject } of people) {
    const [, entity, id] = /^hrm\.(employee)-(\d+)$/.exec(subject) ?? [];
    if (entity) {
      add(`employee ${id}`, (await request(run.hrm).get(`/api/v1/employees/${id}`).set(approver)).text);
      add(
        `history ${id}`,
        (await request(run.audit).get(`/api/v1/history/hrm/employees/${id}`).set(auditor)).text,
      );
    }
  }
  add('audit events', (await request(run.audit).get('/api/v1/events?limit=1000').set(auditor)).text);
  const opened: StoredEvent[] = await run.suite.auditEvents.readAll({ after: 0, limit: 100_000 });
  add('export (the opened log)', JSON.stringify(opened));
  for (const { name } of suiteCollections(run.suite.modules)) {
    const { items } = await run.suite.readStore.find(name, { filters: [], limit: 10_000, offset: 0 });
    add(`read model ${name}`, items.join('\n'));
  }
  for (const { file, text } of filesOf(dir)) places.push({ where: file, text });
  return places;
}

async function checkInvariant(run: Running, dir: string, people: readonly Person[]) {
  const places = await everything(run, dir, people);
  const leaks = people
    .filter(({ erased }) => erased)
    .flatMap(({ subject, values }) =>
      values.flatMap((value) =>
        places
          .filter(({ text }) => text.includes(lower(value)))
          .map(({ where }) => `${subject} ${value} in ${where}`),
      ),
    );
  expect(leaks).toEqual([]);
  const readModels = places.filter(({ where }) => where.startsWith('read model')).map(({ text }) => text);
  const lost = people
    .filter(({ erased }) => !erased)
    .flatMap(({ subject, values }) =>
      values
        .filter((value) => !readModels.some((text) => text.includes(lower(value))))
        .map((value) => `${subject} ${value}`),
    );
  expect(lost).toEqual([]);
}

test('no value of an erased subject is anywhere after any step, and every other value is still there', async () => {
  let runNumber = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), async (steps) => {
      runNumber += 1;
      const { dir, cleanup } = tempDir();
      const replays = tempDir();
      const replayDir = replays.dir;
      let run = await open(dir);
      const { commands } = createSeedContext(run.suite.eventStore, run.suite.ids, `org${runNumber}`);
      await addOrganization(commands, {
        default_currency: 'GBP',
        industry: 'Home energy technology',
        name: 'Model Ltd',
        legal_name: 'Model Ltd',
        country: 'GB',
        website: 'https://www.model.example',
        headquarters_city: 'Leeds',
        default_language: 'en-GB',
        timezone: 'Europe/London',
        date_format: 'dd/mm/yyyy',
      });
      await addDepartment(commands, {
        name: 'Engineering',
        code: 'ENG',
        parent_department_id: null,
        cost_center: 'CC-ENG',
      });
      const people: Person[] = [];
      const employees: { id: number; person: Person }[] = [];
      const proposals: string[] = [];
      let policy = false;
      let n = 0;
      try {
        for (const current of steps) {
          n += 1;
          const tag = `${runNumber}${n}`;
          const employee = (who: number) => employees[who % Math.max(employees.length, 1)];
          switch (current.kind) {
            case 'join': {
              const [first, last] = [word('f', Number(tag)), word('l', Number(tag))];
              const { id } = await joinEmployee(
                createSeedContext(run.suite.eventStore, run.suite.ids, `j${tag}`).commands,
                {
                  first_name: first,
                  last_name: last,
                  company_email: `${lower(first)}.${lower(last)}@model.example`,
                  designation: 'Engineer',
                  department_id: 1,
                  organization_id: 1,
                  reports_to: null,
                  employment_type: 'Full-time',
                  work_location: 'Leeds',
                  country: 'GB',
                  date_of_joining: '2020-01-06',
                },
              );
              const person = {
                subject: `hrm.employee-${id}`,
                values: [first, last, `${lower(first)}.${lower(last)}@model.example`],
                erased: false,
              };
              people.push(person);
              employees.push({ id, person });
              break;
            }
            case 'attendance': {
              const chosen = employee(current.who);
              if (!chosen) break;
              const date = new Date(Date.UTC(2025, 0, 1 + n)).toISOString().slice(0, 10);
              const answer = await request(run.hrm)
                .post('/api/v1/attendance')
                .set(admin)
                .send({
                  employee_id: chosen.id,
                  attendance_date: date,
                  status: 'Present',
                  in_time: `${date}T09:00:00Z`,
                  out_time: `${date}T17:00:00Z`,
                  late_entry: false,
                  early_exit: false,
                });
              expect([201, 409, 422]).toContain(answer.status);
              if (answer.status === 409) expect(chosen.person.erased).toBe(true);
              break;
            }
            case 'leave': {
              const chosen = employee(current.who);
              if (!chosen) break;
              const description = `${word('d', Number(tag))} flu`;
              const date = new Date(Date.UTC(2027, 0, 4 + n * 7)).toISOString().slice(0, 10);
              const answer = await request(run.hrm).post('/api/v1/leave').set(clerk).send({
                employee_id: chosen.id,
                leave_type: 'Sick Leave',
                from_date: date,
                to_date: date,
                half_day: false,
                half_day_date: null,
                description,
              });
              if (answer.status === 202) proposals.push(answer.body.id as string);
              if (answer.status === 201 || answer.status === 202) chosen.person.values.push(description);
              else expect([409, 422]).toContain(answer.status);
              break;
            }
            case 'policy': {
              if (policy) break;
              const { outcome } = await requireApproval(
                createSeedContext(run.suite.eventStore, run.suite.ids, `p${tag}`).commands,
                hrmModule,
                'POST /api/v1/leave',
                'hrm:approver',
              );
              await run.suite.runtime.waitFor(outcome.events.at(-1)?.position ?? 0);
              policy = true;
              break;
            }
            case 'decide': {
              const id = proposals[current.which % Math.max(proposals.length, 1)];
              if (!id) break;
              const answer = await request(run.hrm)
                .post(`/api/v1/proposals/${id}/${current.approve ? 'approve' : 'reject'}`)
                .set(approver)
                .send(current.approve ? {} : { reason: 'Not this week' });
              expect([200, 409, 422]).toContain(answer.status);
              break;
            }
            case 'request': {
              const requester = word('r', Number(tag));
              const answer = await request(run.esm)
                .post('/api/v1/requests')
                .set(admin)
                .send({
                  title: 'Laptop',
                  status: 'Open',
                  priority: 'Low',
                  form_data: JSON.stringify({ name: requester }),
                });
              expect(answer.status).toBe(201);
              people.push({ subject: `esm.request-${answer.body.id}`, values: [requester], erased: false });
              break;
            }
            case 'erase': {
              const person = people[current.who % Math.max(people.length, 1)];
              if (!person || person.erased) break;
              if (current.through === 'api') {
                const answer = await request(run.audit)
                  .post('/api/v1/erasures')
                  .set(admin)
                  .send({ subject: person.subject, reason: 'Art. 17' });
                expect(answer.status).toBe(201);
              } else {
                const { position } = await eraseSubject(
                  operatorContext(run.suite),
                  run.suite.subjectKeys,
                  person.subject,
                  'Art. 17',
                );
                expect(await erasureDone(run.suite.readStore, position, 30_000)).toBe(true);
              }
              person.erased = true;
              break;
            }
            case 'restart':
              await run.suite.close();
              run = await open(dir);
              break;
            case 'rebuild':
              await run.suite.runtime.rebuild();
              await run.suite.readStore.purge();
              break;
            case 'replay': {
              // Outside the data directory: a copy made now keeps what it copied, as an export does.
              const target = path.join(replayDir, `replay-${n}`);
              const erasedBefore = people.filter(({ erased }) => erased);
              const copy = await openSuite(
                loadConfig({ SUITE_DATA_DIR: target, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' }),
                { logger: createLogger('silent'), modules: [hrmModule, esmModule] },
              );
              await copyLog(
                run.suite.storedEvents,
                copy.storedEvents,
                await run.suite.storedEvents.headPosition(),
              );
              await copy.subjectKeys.keep(await run.suite.subjectKeys.allKeys());
              await copy.runtime.start();
              await copy.close();
              // What was erased before the replay is in none of its files.
              const copied = filesOf(target);
              expect(
                erasedBefore.flatMap(({ subject, values }) =>
                  values.flatMap((value) =>
                    copied
                      .filter(({ text }) => text.includes(lower(value)))
                      .map(({ file }) => `${subject} ${value} in ${file}`),
                  ),
                ),
              ).toEqual([]);
              break;
            }
            case 'retry':
              await run.suite.runtime.retryParked();
              break;
          }
          await run.suite.runtime.waitFor(await run.suite.eventStore.headPosition(), 10_000);
          await checkInvariant(run, dir, people);
        }
        expect((await verifyLog(run.suite.storedEvents, run.suite.catalog)).ok).toBe(true);
      } finally {
        await run.suite.close();
        cleanup();
        replays.cleanup();
      }
    }),
    { numRuns: 6, endOnFailure: true },
  );
});
