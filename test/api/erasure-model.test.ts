import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { hrmModule } from '../../src/api/hrm';
import { createLogger } from '../../src/api/kit/logging';
import { requireApproval } from '../../src/approvals/policies';
import { copyLog } from '../../src/audit/replay';
import { operatorContext } from '../../src/cli/common';
import { verifyLog } from '../../src/events/verify';
import { openSuite } from '../../src/main';
import { eraseSubject, erasureDone } from '../../src/privacy/erase';
import { createSeedContext } from '../../src/seed/context';
import { checkInvariant, filesOf } from '../support/erasure-model-checks';
import {
  admin,
  approver,
  clerk,
  close,
  configFor,
  open,
  PERSONAL_MODULES,
  requestLog,
  serverOf,
  type Running,
} from '../support/erasure-model-suite';
import {
  mailFrom,
  newSubjects,
  SUBJECT_KINDS,
  word,
  writeFixtures,
  type Fixtures,
  type Person,
  type SubjectKind,
} from '../support/erasure-model-writes';
import { tempDir } from '../support/temp-dir';

/**
 * The invariant of erasure (issue 49), model-based: steps drawn at random run on the embedded stores
 * of every module that declares personal data: new data subjects of each kind (employees, candidates
 * with an application, service requests, CRM contacts and leads, learners, form submissions, mail
 * contacts, contract members and counterparties), what else is written of them (attendance, leave under
 * an approval policy with its proposals approved or rejected, enrolments, mail they send), erasures
 * through the audit API and as `suite erase` does them, restarts, rebuilds, replays and parked-event
 * retries; each run ends by erasing everyone left. After every step no value of an erased subject is in
 * any answer of the APIs (lists, records, `q=`, proposals, the audit log and histories), any read
 * model, any file of the data directory (raw bytes, any case), an export of the log or the request log
 * (which holds no one's values at all), and every value of a subject not erased is still there.
 */

jest.setTimeout(120_000);

type Step =
  | { kind: 'write'; what: SubjectKind }
  | { kind: 'attendance'; who: number }
  | { kind: 'leave'; who: number }
  | { kind: 'enrol'; who: number }
  | { kind: 'mail'; who: number }
  | { kind: 'policy' }
  | { kind: 'decide'; which: number; approve: boolean }
  | { kind: 'erase'; who: number; through: 'api' | 'cli' }
  | { kind: 'restart' }
  | { kind: 'rebuild' }
  | { kind: 'replay' }
  | { kind: 'retry' };

const toward = (kind: 'attendance' | 'leave' | 'enrol' | 'mail') => fc.nat(9).map((who) => ({ kind, who }));

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.constantFrom(...SUBJECT_KINDS).map((what) => ({ kind: 'write' as const, what })),
    weight: 6,
  },
  { arbitrary: toward('attendance'), weight: 1 },
  { arbitrary: toward('leave'), weight: 2 },
  { arbitrary: toward('enrol'), weight: 1 },
  { arbitrary: toward('mail'), weight: 1 },
  { arbitrary: fc.constant({ kind: 'policy' as const }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('decide' as const), which: fc.nat(9), approve: fc.boolean() }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('erase' as const),
      who: fc.nat(29),
      through: fc.constantFrom('api' as const, 'cli' as const),
    }),
    weight: 5,
  },
  { arbitrary: fc.constant({ kind: 'restart' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'rebuild' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'replay' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'retry' as const }), weight: 1 },
);

const recordId = (person: Person) => Number(person.subject.split('-').at(-1));
const pick = <T>(items: readonly T[], which: number): T | undefined =>
  items[which % Math.max(items.length, 1)];

/** What a run has written so far, and what it may still act on. */
interface Model {
  people: Person[];
  proposals: string[];
  policy: boolean;
}

const ofKind = (model: Model, subjectPrefix: string) =>
  model.people.filter(({ subject }) => subject.startsWith(subjectPrefix));

/** A copy made now, outside the data directory, as `suite replay` makes it: no erased value in its files. */
async function replayInto(run: Running, target: string, model: Model) {
  const erasedBefore = model.people.filter(({ erased }) => erased);
  const copy = await openSuite(configFor(target), {
    logger: createLogger('silent'),
    modules: [...PERSONAL_MODULES],
  });
  await copyLog(run.suite.storedEvents, copy.storedEvents, {
    until: await run.suite.storedEvents.headPosition(),
  });
  await copy.subjectKeys.keep(await run.suite.subjectKeys.allKeys());
  await copy.runtime.start();
  await copy.close();
  const copied = filesOf(target);
  expect(
    erasedBefore.flatMap(({ subject, values }) =>
      values.flatMap((value) =>
        copied
          .filter(({ text }) => text.includes(value.toLowerCase()))
          .map(({ file }) => `${subject} ${value} in ${file}`),
      ),
    ),
  ).toEqual([]);
}

/** The data directory, a scratch directory outside it, and what the writes need. */
interface Where {
  data: string;
  scratch: string;
  fixtures: Fixtures;
}

/** One step of the model; the running suite after it (a restart opens a new one). */
async function take(current: Step, run: Running, model: Model, n: number, where: Where) {
  const hrm = serverOf(run, 'hrm');
  switch (current.kind) {
    case 'write':
      model.people.push(await newSubjects[current.what](run, n, where.fixtures));
      break;
    case 'attendance': {
      const chosen = pick(ofKind(model, 'hrm.employee-'), current.who);
      if (!chosen) break;
      const date = new Date(Date.UTC(2025, 0, 1 + n)).toISOString().slice(0, 10);
      const answer = await request(hrm)
        .post('/api/v1/attendance')
        .set(admin)
        .send({
          employee_id: recordId(chosen),
          attendance_date: date,
          status: 'Present',
          in_time: `${date}T09:00:00Z`,
          out_time: `${date}T17:00:00Z`,
          late_entry: false,
          early_exit: false,
        });
      expect([201, 409, 422]).toContain(answer.status);
      if (answer.status === 409) expect(chosen.erased).toBe(true);
      break;
    }
    case 'leave': {
      const chosen = pick(ofKind(model, 'hrm.employee-'), current.who);
      if (!chosen) break;
      const description = `${word('d', n)} flu`;
      const date = new Date(Date.UTC(2027, 0, 4 + n * 7)).toISOString().slice(0, 10);
      const answer = await request(hrm)
        .post('/api/v1/leave')
        .set(clerk)
        .send({
          employee_id: recordId(chosen),
          leave_type: 'Sick Leave',
          from_date: date,
          to_date: date,
          half_day: false,
          half_day_date: null,
          description,
        });
      if (answer.status === 202) model.proposals.push(answer.body.id as string);
      if (answer.status === 201 || answer.status === 202) chosen.values.push(description);
      else expect([409, 422]).toContain(answer.status);
      break;
    }
    case 'enrol': {
      const chosen = pick(ofKind(model, 'lms.learner-'), current.who);
      if (!chosen) break;
      const answer = await request(serverOf(run, 'lms'))
        .post('/api/v1/enrolments')
        .set(admin)
        .send({ learner_id: recordId(chosen), course_id: where.fixtures.course });
      expect([201, 409, 422]).toContain(answer.status);
      if (!chosen.erased) expect([201, 409]).toContain(answer.status);
      break;
    }
    case 'mail': {
      const sender = pick(
        ofKind(model, 'mail.contact-').filter(({ erased }) => !erased),
        current.who,
      );
      if (sender) await mailFrom(run, n, sender);
      break;
    }
    case 'policy': {
      if (model.policy) break;
      const { outcome } = await requireApproval(
        createSeedContext(run.suite.eventStore, run.suite.ids, `policy${n}`).commands,
        hrmModule,
        'POST /api/v1/leave',
        'hrm:approver',
      );
      await run.suite.runtime.waitFor(outcome.events.at(-1)?.position ?? 0);
      model.policy = true;
      break;
    }
    case 'decide': {
      const id = pick(model.proposals, current.which);
      if (!id) break;
      const answer = await request(hrm)
        .post(`/api/v1/proposals/${id}/${current.approve ? 'approve' : 'reject'}`)
        .set(approver)
        .send(current.approve ? {} : { reason: 'Not this week' });
      expect([200, 409, 422]).toContain(answer.status);
      break;
    }
    case 'erase': {
      const person = pick(model.people, current.who);
      if (!person || person.erased) break;
      if (current.through === 'api') {
        const answer = await request(serverOf(run, 'audit'))
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
      await close(run);
      return open(where.data, run.log);
    case 'rebuild':
      await run.suite.runtime.rebuild();
      await run.suite.readStore.purge();
      break;
    case 'replay':
      await replayInto(run, path.join(where.scratch, `replay-${n}`), model);
      break;
    case 'retry':
      await run.suite.runtime.retryParked();
      break;
  }
  return run;
}

test('no value of an erased subject is anywhere after any step, and every other value is still there', async () => {
  let runNumber = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.boolean(),
      fc.array(step, { minLength: 4, maxLength: 8 }),
      async (underPolicy, drawn) => {
        // Half the runs put leave under its approval policy first, so that proposals are decided.
        const steps: Step[] = underPolicy ? [{ kind: 'policy' }, ...drawn] : drawn;
        runNumber += 1;
        const data = tempDir();
        const scratch = tempDir();
        let run = await open(data.dir, requestLog());
        const where = {
          data: data.dir,
          scratch: scratch.dir,
          fixtures: await writeFixtures(run, String(runNumber)),
        };
        const model: Model = { people: [], proposals: [], policy: false };
        let n = 0;
        try {
          // Given one data subject of every kind, so that every module holds personal data from the start.
          for (const kind of SUBJECT_KINDS) {
            n += 1;
            model.people.push(await newSubjects[kind](run, Number(`${runNumber}${n}`), where.fixtures));
          }
          for (const current of steps) {
            n += 1;
            run = await take(current, run, model, Number(`${runNumber}${n}`), where);
            await run.suite.runtime.waitFor(await run.suite.eventStore.headPosition(), 10_000);
            await checkInvariant(run, where, model.people);
          }
          // Then everyone still there is erased, so that every run tries every module's declarations.
          for (const [who, person] of model.people.entries()) {
            if (person.erased) continue;
            const through = who % 2 === 0 ? ('api' as const) : ('cli' as const);
            run = await take({ kind: 'erase', who, through }, run, model, n, where);
          }
          await run.suite.runtime.waitFor(await run.suite.eventStore.headPosition(), 10_000);
          await checkInvariant(run, where, model.people);
          expect((await verifyLog(run.suite.storedEvents, run.suite.catalog)).ok).toBe(true);
        } finally {
          await close(run);
          data.cleanup();
          scratch.cleanup();
        }
      },
    ),
    { numRuns: 4, endOnFailure: true },
  );
});
