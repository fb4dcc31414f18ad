import request from 'supertest';
import { operatorContext } from '../../src/cli/common';
import { eraseSubject } from '../../src/privacy/erase';
import { ERASED_TEXT, derivedText } from '../../src/privacy/sealed-value';
import { eventually } from '../support/eventually';
import { auth, openHrm, workedDay, type HrmHarness } from '../support/hrm-harness';

/**
 * Text built from erased parts (an employee's `employee_name` from first and last name) reads
 * "[erased]" once, not "[erased] [erased]" (issue 49, leak 6).
 */

let h: HrmHarness;
beforeAll(async () => {
  h = await openHrm();
  h.suite.erasures.start();
});
afterAll(() => h.close());

const erase = (subject: string) =>
  eraseSubject(operatorContext(h.suite), h.suite.subjectKeys, subject, 'Art. 17');
const record = async (path: string) =>
  (await request(h.app).get(path).expect(200)).body as Record<string, unknown>;

describe('names derived from erased parts', () => {
  it('read [erased] once on the employee and on attendance written after the erasure', async () => {
    const { grace } = h.fixtures;
    await erase(`hrm.employee-${grace}`);
    const employee = await eventually(
      'the employee to be erased',
      () => record(`/api/v1/employees/${grace}`),
      (doc) => doc.first_name === ERASED_TEXT,
    );
    expect(employee).toMatchObject({ first_name: ERASED_TEXT, employee_name: ERASED_TEXT });
    const attendance = await request(h.app)
      .post('/api/v1/attendance')
      .set(auth)
      .send(workedDay(grace))
      .expect(201);
    expect(attendance.body.employee_name).toBe(ERASED_TEXT);
  });

  it('read [erased] once on a candidate', async () => {
    const { marta } = h.fixtures;
    await erase(`hrm.candidate-${marta}`);
    const candidate = await eventually(
      'the candidate to be erased',
      () => record(`/api/v1/candidates/${marta}`),
      (doc) => doc.first_name === ERASED_TEXT,
    );
    expect(candidate.full_name).toBe(ERASED_TEXT);
  });

  it('join the parts there are, and nothing of a name half erased', () => {
    expect(derivedText(['Grace', 'Hopper'])).toBe('Grace Hopper');
    expect(derivedText(['Dr', null, 'Hopper'])).toBe('Dr Hopper');
    expect(derivedText([ERASED_TEXT, 'Hopper'])).toBe(ERASED_TEXT);
  });
});
