import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import { esmModule } from '../../src/api/esm';
import { openEsm, SERVER_SECRET, TOKEN, type EsmHarness } from '../support/esm-harness';
import { auth, expectEnvelope, validRequest } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

describe('write rate limit', () => {
  it('answers 429 rate_limited with Retry-After once a caller has spent its burst; reads stay open', async () => {
    const app = createModuleApp(esmModule, h.suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      writeRateLimit: { capacity: 2, refillPerSecond: 0.5 },
    });
    const post = () => request(app).post('/api/v1/requests').set(auth).send(validRequest);
    expect((await post()).status).toBe(201);
    expect((await post()).status).toBe(201);

    const limited = await post();
    expectEnvelope(limited, 429, 'rate_limited');
    expect(limited.headers['retry-after']).toBe('2');
    expect(limited.body.error.details).toEqual({ retry_after_seconds: 2 });
    expect((await request(app).get('/api/v1/requests')).body.meta.total).toBe(2);
  });

  it('counts only authenticated writes: a wrong token is 401, not a spent token', async () => {
    const app = createModuleApp(esmModule, h.suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      writeRateLimit: { capacity: 1, refillPerSecond: 0.1 },
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await request(app)
        .post('/api/v1/requests')
        .set('Authorization', 'Bearer wrong')
        .send(validRequest);
      expectEnvelope(res, 401, 'unauthorized');
    }
    expect((await request(app).post('/api/v1/requests').set(auth).send(validRequest)).status).toBe(201);
  });
});
