import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { esmModule } from '../../src/api/esm';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import type { Change } from '../../src/changes/change';
import { loadConfig } from '../../src/config';
import { openSuite, startProjecting, startWebhookDelivery, startWorker, type Suite } from '../../src/main';
import { fakeChangeFeed, type FakeChangeFeed } from '../support/fake-change-feed';
import { SERVER_SECRET, TOKEN } from '../support/esm-harness';
import { tempDir } from '../support/temp-dir';

const HOUR_MS = 3_600_000;

/** A receiver on a port of its own: what it was sent, and what it answers (200 unless told). */
interface Receiver {
  url: string;
  received: { headers: IncomingHttpHeaders; body: string }[];
  answer: (index: number) => number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Omit<Receiver, 'url' | 'close'> = { received: [], answer: () => 200 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const index = receiver.received.push({ headers: req.headers, body }) - 1;
      res.writeHead(receiver.answer(index)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe('webhooks', () => {
  const { dir, cleanup } = tempDir();
  // Near the real time, which standardwebhooks checks the timestamps against; whole seconds, as the log's.
  const clock = { at: new Date(Math.floor(Date.now() / 1000) * 1000), now: () => clock.at };
  const move = (ms: number) => (clock.at = new Date(clock.at.getTime() + ms));
  let suite: Suite;
  let feed: FakeChangeFeed;
  let receiver: Receiver;
  let app: ReturnType<typeof createModuleApp>;

  /** A change the log's last event made (the feed is a fake: no esm event is written). */
  const change = async (id: number, op: Change['op'] = 'upsert', resource = 'requests') =>
    feed.add({
      resource,
      id,
      op,
      position: await suite.eventStore.headPosition(),
      occurred_at: clock.at.toISOString(),
      ...(op === 'upsert' && { record: { id, title: `Request ${id}` } }),
    });
  const admin = (call: request.Test) => call.set('Authorization', `Bearer ${TOKEN}`);
  const register = (body: object) => admin(request(app).post('/api/v1/webhooks')).send(body);

  /** Queues what is due and runs it, until the log stops growing. */
  async function deliverDue(): Promise<void> {
    for (;;) {
      const head = await suite.eventStore.headPosition();
      await suite.runtime.waitFor(head);
      await suite.webhooks.runOnce();
      await suite.webhookJobs.idle();
      if ((await suite.eventStore.headPosition()) === head) return;
    }
  }

  /** Bodies accepted (2xx), as the receiver got them. */
  const accepted = () =>
    receiver.received
      .filter((_, index) => receiver.answer(index) < 300)
      .map(({ body }) => JSON.parse(body) as { type: string; data: Change });

  beforeAll(async () => {
    const config = loadConfig({
      SUITE_DATA_DIR: dir,
      SUITE_SEED: 'none',
      SUITE_LOG_LEVEL: 'silent',
      SUITE_SESSION_SECRET: SERVER_SECRET,
      SUITE_WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    suite = await openSuite(config, { logger: createLogger('silent'), clock, modules: [esmModule] });
    await startProjecting(suite);
    feed = fakeChangeFeed();
    await startWebhookDelivery(suite, new Map([['esm', feed]]));
    app = createModuleApp(esmModule, suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      webhookAllowPrivate: true,
    });
  });
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(() => receiver.close());
  afterAll(async () => {
    await suite.close();
    cleanup();
  });

  it('registers a webhook whose secret is shown once: never read again, never in the log', async () => {
    const res = await register({ url: receiver.url, resource: 'requests', description: 'ticket sync' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      module: 'esm',
      url: receiver.url,
      resource: 'requests',
      description: 'ticket sync',
      status: 'active',
      created_by: 'token:admin',
      delivered_up_to: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.headers.location).toBe(`/api/v1/webhooks/${res.body.id}`);

    const read = await admin(request(app).get(`/api/v1/webhooks/${res.body.id}`));
    const { secret, ...webhook } = res.body;
    expect(read.body).toEqual(webhook);
    const listed = await admin(request(app).get('/api/v1/webhooks'));
    expect(listed.body.data).toContainEqual(webhook);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const log = JSON.stringify(await suite.auditEvents.readAll({ after: 0, limit: 10_000 }));
    expect(log).toContain(res.body.id);
    expect(log).not.toContain(secret);
    expect(log).not.toContain((secret as string).slice('whsec_'.length));
  });

  it('refuses an unknown resource, a URL other than http(s), and bad bodies with 422', async () => {
    const unknown = await register({ url: receiver.url, resource: 'invoices' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toMatch(/resource: esm has no resource invoices/);
    expect((await register({ url: 'ftp://example.com/hook' })).status).toBe(422);
    expect((await register({ url: 'not a url' })).status).toBe(422);
    expect((await register({ url: receiver.url, secret: 'mine' })).status).toBe(422);
  });

  it('refuses private, loopback and link-local targets unless SUITE_WEBHOOK_ALLOW_PRIVATE is set', async () => {
    const strict = createModuleApp(esmModule, suite, { apiToken: TOKEN, sessionSecret: SERVER_SECRET });
    const post = (url: string) => admin(request(strict).post('/api/v1/webhooks')).send({ url });
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const res = await post(url);
      if (res.status !== 422 || !/private or loopback/.test(res.body.error.message))
        throw new Error(`${url}: ${res.status} ${res.text}`);
    }
    const created = [
      await post('https://93.184.215.14/hook'),
      await register({ url: 'http://127.0.0.1:9/hook' }),
    ];
    for (const res of created) {
      expect(res.status).toBe(201);
      await admin(request(app).delete(`/api/v1/webhooks/${res.body.id}`)).expect(204);
    }
  });

  it('needs the admin role', async () => {
    expect((await request(app).get('/api/v1/webhooks')).status).toBe(401);
    expect((await request(app).post('/api/v1/webhooks').send({ url: receiver.url })).status).toBe(401);
  });

  it('delivers each change after its creation, signed as Standard Webhooks verify', async () => {
    await change(1);
    const { body: webhook } = await register({ url: receiver.url, resource: 'requests' });
    const sent = [await change(2), await change(3, 'delete'), await change(4, 'upsert', 'services')];
    await deliverDue();

    expect(receiver.received).toHaveLength(2);
    const verifier = new Webhook(webhook.secret);
    const payloads = receiver.received.map(({ headers, body }) =>
      verifier.verify(body, headers as Record<string, string>),
    );
    expect(payloads).toEqual([
      { type: 'esm.requests.upsert', timestamp: sent[0]?.occurred_at, data: sent[0] },
      { type: 'esm.requests.delete', timestamp: sent[1]?.occurred_at, data: sent[1] },
    ]);
    expect(receiver.received[0]?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const forged = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`);
    const first = receiver.received[0] as Receiver['received'][number];
    expect(() => forged.verify(first.body, first.headers as Record<string, string>)).toThrow();

    const read = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}`));
    expect(read.body.delivered_up_to).toBe(sent[1]?.cursor);
    await admin(request(app).delete(`/api/v1/webhooks/${webhook.id}`)).expect(204);
  });

  it('sends a receiver that fails and then recovers every change once, in order', async () => {
    const { body: webhook } = await register({ url: receiver.url });
    receiver.answer = (index) => (index < 3 ? 500 : 200);
    const sent = [await change(10), await change(11), await change(12)];
    await deliverDue();
    expect(receiver.received).toHaveLength(1);

    for (let retry = 0; retry < 3; retry++) {
      move(HOUR_MS);
      await deliverDue();
    }
    expect(accepted().map((payload) => payload.data)).toEqual(sent);
    const ids = receiver.received.map(({ headers }) => headers['webhook-id']);
    expect(new Set(ids.slice(0, 4)).size).toBe(1);
    expect(new Set(ids).size).toBe(3);

    const deliveries = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}/deliveries`));
    expect(deliveries.body.data.map((attempt: { attempt: number; status_code: number }) => attempt)).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 500, delivered: false, cursor: sent[0]?.cursor }),
      expect.objectContaining({ attempt: 2, status_code: 500, delivered: false }),
      expect.objectContaining({ attempt: 3, status_code: 500, delivered: false }),
      expect.objectContaining({ attempt: 4, status_code: 200, delivered: true, next_attempt_at: null }),
      expect.objectContaining({ attempt: 1, status_code: 200, cursor: sent[1]?.cursor }),
      expect.objectContaining({ attempt: 1, status_code: 200, cursor: sent[2]?.cursor }),
    ]);
    for (const attempt of deliveries.body.data) expect(attempt.latency_ms).toBeGreaterThanOrEqual(0);
    await admin(request(app).delete(`/api/v1/webhooks/${webhook.id}`)).expect(204);
  });

  it('waits out an exponential back-off between attempts', async () => {
    const { body: webhook } = await register({ url: receiver.url });
    receiver.answer = () => 503;
    await change(20);
    await deliverDue();
    const first = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}`));
    expect(Date.parse(first.body.next_attempt_at) - clock.at.getTime()).toBe(5_000);
    move(4_000);
    await deliverDue();
    expect(receiver.received).toHaveLength(1);
    move(1_000);
    await deliverDue();
    expect(receiver.received).toHaveLength(2);
    const second = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}`));
    expect(Date.parse(second.body.next_attempt_at) - clock.at.getTime()).toBe(10_000);
    await admin(request(app).delete(`/api/v1/webhooks/${webhook.id}`)).expect(204);
  });

  it('disables a webhook that could not deliver for 24 hours; a redelivery takes it up again', async () => {
    const { body: webhook } = await register({ url: receiver.url });
    receiver.answer = () => 503;
    const sent = await change(30);
    await deliverDue();
    for (let hours = 0; hours < 24; hours++) {
      move(HOUR_MS);
      await deliverDue();
    }
    const disabled = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}`));
    expect(disabled.body).toMatchObject({ status: 'disabled', next_attempt_at: null });
    expect(disabled.body.disabled_reason).toMatch(/not delivered after \d+ attempts since .*: HTTP 503/);
    const attempts = receiver.received.length;
    move(HOUR_MS);
    await deliverDue();
    expect(receiver.received).toHaveLength(attempts);

    receiver.answer = () => 204;
    const redelivered = await admin(request(app).post(`/api/v1/webhooks/${webhook.id}/redeliver`)).send({});
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ status: 'active', disabled_reason: null });
    await deliverDue();
    expect(receiver.received).toHaveLength(attempts + 1);
    const read = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}`));
    expect(read.body.delivered_up_to).toBe(sent.cursor);
    await admin(request(app).delete(`/api/v1/webhooks/${webhook.id}`)).expect(204);
  });

  it('sends the changes after a cursor again, with the same message ids', async () => {
    const { body: webhook } = await register({ url: receiver.url });
    const sent = [await change(40), await change(41), await change(42)];
    await deliverDue();
    expect(receiver.received).toHaveLength(3);
    await admin(request(app).post(`/api/v1/webhooks/${webhook.id}/redeliver`))
      .send({ after: sent[0]?.cursor })
      .expect(202);
    await deliverDue();
    const ids = receiver.received.map(({ headers }) => headers['webhook-id']);
    expect(ids.slice(3)).toEqual(ids.slice(1, 3));
    expect(
      accepted()
        .slice(3)
        .map((payload) => payload.data),
    ).toEqual(sent.slice(1));

    await admin(request(app).post(`/api/v1/webhooks/${webhook.id}/redeliver`))
      .send({ after: 'c999' })
      .expect(202);
    await deliverDue();
    const read = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}`));
    expect(read.body).toMatchObject({ status: 'disabled' });
    expect(read.body.disabled_reason).toMatch(/does not know the cursor c999/);
    await admin(request(app).delete(`/api/v1/webhooks/${webhook.id}`)).expect(204);
  });

  it('sends nothing more once deleted, and answers 404 for it', async () => {
    const { body: webhook } = await register({ url: receiver.url });
    await admin(request(app).delete(`/api/v1/webhooks/${webhook.id}`)).expect(204);
    await change(50);
    await deliverDue();
    expect(receiver.received).toHaveLength(0);
    for (const path of ['', '/deliveries']) {
      const res = await admin(request(app).get(`/api/v1/webhooks/${webhook.id}${path}`));
      expect(res.status).toBe(404);
    }
    await admin(request(app).delete(`/api/v1/webhooks/${webhook.id}`)).expect(404);
    await admin(request(app).get('/api/v1/webhooks/wh_nosuch')).expect(404);
  });
});

describe('webhooks over the service desk\u2019s own change feed', () => {
  const { dir, cleanup } = tempDir();
  let suite: Suite;
  let app: ReturnType<typeof createModuleApp>;
  let receiver: Receiver;
  const admin = { Authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    const config = loadConfig({
      SUITE_DATA_DIR: dir,
      SUITE_SEED: 'none',
      SUITE_LOG_LEVEL: 'silent',
      SUITE_SESSION_SECRET: SERVER_SECRET,
      SUITE_WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    suite = await openSuite(config, { logger: createLogger('silent'), modules: [esmModule] });
    await startProjecting(suite);
    await startWorker(suite);
    app = createModuleApp(esmModule, suite, {
      apiToken: TOKEN,
      sessionSecret: SERVER_SECRET,
      webhookAllowPrivate: true,
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await suite.close();
    cleanup();
  });

  it('sends each change written after registration, signed, as the feed gives it', async () => {
    const before = await request(app)
      .post('/api/v1/requests')
      .set(admin)
      .send({ title: 'Written before', status: 'Open', priority: 'Low' })
      .expect(201);
    const registered = await request(app)
      .post('/api/v1/webhooks')
      .set(admin)
      .send({ url: receiver.url, resource: 'requests' })
      .expect(201);
    const created = await request(app)
      .post('/api/v1/requests')
      .set(admin)
      .send({ title: 'Laptop for Ana', status: 'Open', priority: 'High' })
      .expect(201);
    await request(app)
      .patch(`/api/v1/requests/${created.body.id}`)
      .set(admin)
      .send({ status: 'Resolved' })
      .expect(200);

    for (let turn = 0; receiver.received.length < 2 && turn < 200; turn++) {
      await suite.webhooks.runOnce();
      await suite.webhookJobs.idle();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const verifier = new Webhook(registered.body.secret as string);
    const payloads = receiver.received.map(
      ({ headers, body }) => verifier.verify(body, headers as Record<string, string>) as { data: Change },
    );
    expect(payloads.map(({ data }) => [data.id, data.op, data.record?.status])).toEqual([
      [created.body.id, 'upsert', 'Open'],
      [created.body.id, 'upsert', 'Resolved'],
    ]);
    expect(payloads.some(({ data }) => data.id === before.body.id)).toBe(false);
    const feed = await request(app).get(`/api/v1/changes?resource=requests`).expect(200);
    expect(payloads.map(({ data }) => data)).toEqual(feed.body.data.slice(1));
  });
});
