import request from 'supertest';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { auth, expectEnvelope, validRequest } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

describe('X-Event-Position and X-Min-Position', () => {
  it('a read that sends the position of a write it saw answers with that write', async () => {
    const created = await request(h.app).post('/api/v1/requests').set(auth).send(validRequest);
    const position = String(created.headers['x-event-position']);
    expect(Number(position)).toBeGreaterThan(0);

    const res = await request(h.app)
      .get(`/api/v1/requests/${created.body.id}`)
      .set('X-Min-Position', position);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.body.id);
  });

  it('answers 503 not_caught_up with Retry-After when the read models do not reach the position in time', async () => {
    const res = await request(h.app).get('/api/v1/requests').set('X-Min-Position', '999999999');
    expectEnvelope(res, 503, 'not_caught_up');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.error.details).toMatchObject({ position: 999999999 });
  });

  it.each(['-1', 'abc', '1.5', '99999999999999999999'])(
    'answers 422 for X-Min-Position %s',
    async (value) => {
      const res = await request(h.app).get('/api/v1/requests').set('X-Min-Position', value);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['header', 'X-Min-Position']);
    },
  );
});
