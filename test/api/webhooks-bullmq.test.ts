import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import type { Change } from '../../src/changes/change';
import { loadConfig } from '../../src/config';
import { openSuite, startProjecting, startWebhookDelivery, type Suite } from '../../src/main';
import { eventually } from '../support/eventually';
import { fakeChangeFeed } from '../support/fake-change-feed';
import { SERVER_SECRET, TOKEN } from '../support/esm-harness';
import { tempDir } from '../support/temp-dir';

/** The real Redis this machine and CI run (a missing Redis fails these tests; it is not a skip). */
const REDIS_URL = process.env.SUITE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('webhooks delivered by BullMQ jobs (the distributed profile)', () => {
  const { dir, cleanup } = tempDir();
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    // The first attempt fails: the job's next run, once its back-off has passed, sends it again.
    req.on('end', () => res.writeHead(received.push({ headers: req.headers, body }) === 1 ? 500 : 200).end());
  });
  let suite: Suite;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const config = loadConfig({
      SUITE_DATA_DIR: dir,
      SUITE_SEED: 'none',
      SUITE_LOG_LEVEL: 'silent',
      SUITE_SESSION_SECRET: SERVER_SECRET,
      SUITE_WEBHOOK_ALLOW_PRIVATE: 'true',
      SUITE_REDIS_URL: REDIS_URL,
      SUITE_REDIS_PREFIX: `suite-test-${randomUUID()}`,
    });
    suite = await openSuite(config, { logger: createLogger('silent'), modules: [esmModule] });
  });
  afterAll(async () => {
    await suite.close();
    await new Promise((resolve) => receiver.close(resolve));
    cleanup();
  });

  it('sends every change once delivered, in order, signed, through the queue on Redis', async () => {
    await startProjecting(suite);
    const feed = fakeChangeFeed();
    await startWebhookDelivery(suite, new Map([['esm', feed]]));
    const app = createModuleApp(esmModule, suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      webhookAllowPrivate: true,
    });
    const { port } = receiver.address() as AddressInfo;
    const created = await request(app)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ url: `http://127.0.0.1:${port}/hooks` })
      .expect(201);
    const at = new Date().toISOString();
    const position = await suite.eventStore.headPosition();
    const sent = [1, 2, 3].map((id) =>
      feed.add({ resource: 'requests', id, op: 'upsert', position, occurred_at: at, record: { id } }),
    );

    await eventually(
      'the three changes to be delivered, the first after a retry',
      () => received.length,
      (count) => count === 4,
      { timeoutMs: 30_000 },
    );
    const verifier = new Webhook(created.body.secret);
    const payloads = received.map(
      ({ headers, body }) => verifier.verify(body, headers as Record<string, string>) as { data: Change },
    );
    expect(payloads.slice(1).map((payload) => payload.data)).toEqual(sent);
    expect(received[0]?.headers['webhook-id']).toBe(received[1]?.headers['webhook-id']);
  });
});
