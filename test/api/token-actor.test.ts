import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { openEsm, SERVER_SECRET, TOKEN, type EsmHarness } from '../support/esm-harness';
import { auth, validRequest } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

describe('the name of the bootstrap token on events', () => {
  it('is token:admin: nothing on the event is derived from the token, so the log tells nothing of it', async () => {
    const app = createModuleApp(esmModule, h.suite, { apiToken: TOKEN, sessionSecret: SERVER_SECRET });
    const res = await request(app).post('/api/v1/requests').set(auth).send(validRequest).expect(201);
    const [event] = await h.suite.eventStore.queryLog({
      after: Number(res.headers['x-event-position']) - 1,
      limit: 1,
    });
    expect(event?.metadata.actor).toBe('token:admin');
    expect(JSON.stringify(event)).not.toContain(TOKEN);
  });
});
