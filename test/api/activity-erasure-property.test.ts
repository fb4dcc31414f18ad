import fc from 'fast-check';
import request from 'supertest';
import { operatorContext } from '../../src/cli/common';
import { eraseSubject } from '../../src/privacy/erase';
import { openEsm, TOKEN, type EsmHarness } from '../support/esm-harness';

/**
 * Whatever writes and erasures are interleaved on whichever requests, no entry of a request's activity
 * (before, after, comment) holds a value its subject's erasure erased; the values not erased show.
 */

jest.setTimeout(240_000);

const auth = { Authorization: `Bearer ${TOKEN}` };

type Action =
  | { kind: 'submit' }
  | { kind: 'comment'; record: number; visibility: 'public' | 'internal' }
  | { kind: 'priority'; record: number; priority: 'Low' | 'High' }
  | { kind: 'erase'; record: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.constant({ kind: 'submit' as const }),
  fc.record({
    kind: fc.constant('comment' as const),
    record: fc.nat(),
    visibility: fc.constantFrom('public' as const, 'internal' as const),
  }),
  fc.record({
    kind: fc.constant('priority' as const),
    record: fc.nat(),
    priority: fc.constantFrom('Low' as const, 'High' as const),
  }),
  fc.record({ kind: fc.constant('erase' as const), record: fc.nat() }),
);

let h: EsmHarness;
beforeAll(async () => {
  h = await openEsm();
});
afterAll(() => h.close());

let secrets = 0;
/** A value no other write holds. */
const secret = () => `secret${++secrets}x`;

it('never shows an erased value in a record\u2019s activity, and shows the others', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), async (actions) => {
      /** Each request of this run, with the values it holds that are not erased, and those erased. */
      const records: { id: number; kept: string[]; erased: string[] }[] = [];
      for (const next of actions) {
        const target = records[next.kind === 'submit' ? 0 : next.record % Math.max(records.length, 1)];
        if (next.kind === 'submit' || !target) {
          const value = secret();
          const created = await request(h.app)
            .post('/api/v1/requests')
            .set(auth)
            .send({ title: 'Access', status: 'Open', priority: 'Low', form_data: JSON.stringify({ value }) })
            .expect(201);
          records.push({ id: created.body.id as number, kept: [value], erased: [] });
        } else if (next.kind === 'comment') {
          const value = secret();
          const res = await request(h.app)
            .post(`/api/v1/requests/${target.id}/comments`)
            .set(auth)
            .send({ body: value, visibility: next.visibility });
          if (res.status === 201) target.kept.push(value);
        } else if (next.kind === 'priority') {
          await request(h.app)
            .patch(`/api/v1/requests/${target.id}`)
            .set(auth)
            .send({ priority: next.priority });
        } else {
          await eraseSubject(
            operatorContext(h.suite),
            h.suite.subjectKeys,
            `esm.request-${target.id}`,
            'Art. 17',
          );
          target.erased.push(...target.kept.splice(0));
        }
      }
      for (const { id, kept, erased } of records) {
        const res = await request(h.app)
          .get(`/api/v1/requests/${id}/activity?limit=200`)
          .set(auth)
          .expect(200);
        const text = JSON.stringify(res.body);
        for (const value of erased) expect(text).not.toContain(value);
        for (const value of kept) expect(text).toContain(value);
      }
    }),
    { numRuns: 25 },
  );
});
