import { createHash } from 'node:crypto';
import request from 'supertest';
import { createModuleApp } from '../../src/api/kit/app';
import { esmModule } from '../../src/api/esm';
import { openEsm, SERVER_SECRET, TOKEN, type EsmHarness } from '../support/esm-harness';
import { auth, validRequest } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

/** The actor a write with the token is recorded under, by an app with this server secret. */
async function actorOf(sessionSecret: string): Promise<unknown> {
  const app = createModuleApp(esmModule, h.suite, { apiToken: TOKEN, sessionSecret });
  const res = await request(app).post('/api/v1/requests').set(auth).send(validRequest).expect(201);
  const [event] = await h.suite.eventStore.queryLog({
    after: Number(res.headers['x-event-position']) - 1,
    limit: 1,
  });
  return event?.metadata.actor;
}

describe('the name of the API token on events', () => {
  it('is a keyed hash: not a prefix of the token`s SHA-256, stable under one secret, other under another', async () => {
    const actor = await actorOf(SERVER_SECRET);
    expect(actor).toMatch(/^token:[0-9a-f]{12}$/);
    const bareHash = createHash('sha256').update(TOKEN).digest('hex');
    expect(bareHash.startsWith((actor as string).slice('token:'.length))).toBe(false);
    expect(await actorOf(SERVER_SECRET)).toBe(actor);
    expect(await actorOf('another-server-secret-0123456789abcdef')).not.toBe(actor);
  });
});
