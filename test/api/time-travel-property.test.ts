import fc from 'fast-check';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { openEsm, TOKEN, type EsmHarness } from '../support/esm-harness';

/**
 * Whatever writes are interleaved on whichever records, a read `as_of_position` P answers the record
 * as its history shows it after the last of its events at or before P, and 404 before its first.
 */

jest.setTimeout(180_000);

const AUDITOR = 'time-travel-property-auditor';
const auth = { Authorization: `Bearer ${TOKEN}` };

interface Step {
  event: { position: number };
  record: Record<string, unknown> | null;
}

type Write = { kind: 'submit'; title: string } | { kind: 'update'; record: number; assignee: number };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({
    kind: fc.constant('submit' as const),
    title: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,19}$/),
  }),
  fc.record({
    kind: fc.constant('update' as const),
    record: fc.nat(),
    /** Which of the fixture's active agents, or nobody. */
    assignee: fc.integer({ min: 0, max: 2 }),
  }),
);

let h: EsmHarness;
beforeAll(async () => {
  h = await openEsm();
});
afterAll(() => h.close());

it('reads as of every position agree with the prefixes of each record history', async () => {
  const audit = createAuditApp(h.suite, AUDITOR);
  await fc.assert(
    fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 8 }), async (writes) => {
      const ids: number[] = [];
      for (const next of writes) {
        if (next.kind === 'submit' || ids.length === 0) {
          const title = next.kind === 'submit' ? next.title : 'first';
          const created = await request(h.app)
            .post('/api/v1/requests')
            .set(auth)
            .send({ title, status: 'Open', priority: 'Low', service_id: h.fixtures.laptopService })
            .expect(201);
          ids.push(created.body.id as number);
        } else {
          const id = ids[next.record % ids.length] as number;
          await request(h.app)
            .patch(`/api/v1/requests/${id}`)
            .set(auth)
            .send({ assignee_id: [h.fixtures.agent, h.fixtures.otherAgent, null][next.assignee] })
            .expect(200);
        }
      }
      for (const id of ids) {
        const history = await request(audit)
          .get(`/api/v1/history/esm/requests/${id}`)
          .set('Authorization', `Bearer ${AUDITOR}`)
          .expect(200);
        const steps = history.body.data.events as Step[];
        const positions = steps.flatMap((step) => [step.event.position - 1, step.event.position]);
        for (const position of positions) {
          const last = steps.filter((step) => step.event.position <= position).at(-1);
          const answer = await request(h.app)
            .get(`/api/v1/requests/${id}`)
            .query({ as_of_position: position })
            .set(auth);
          if (!last?.record) expect(answer.status).toBe(404);
          else
            // The history folds the record; the read also joins in the names of now.
            expect({
              ...answer.body,
              data: { ...answer.body.data, assignee_name: undefined, requester_name: undefined },
            }).toEqual({
              data: last.record,
              meta: { as_of_position: position, position: last.event.position },
            });
        }
      }
    }),
    { numRuns: 15 },
  );
});
