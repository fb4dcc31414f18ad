import request from 'supertest';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { auth, expectEnvelope, validRequest } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

const post = (body: object, key?: string) => {
  const req = request(h.app).post('/api/v1/requests').set(auth);
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
};

const head = () => h.suite.eventStore.headPosition();
const total = async () =>
  (await request(h.app).get('/api/v1/requests').expect(200)).body.meta.total as number;

describe('Idempotency-Key on POST /api/v1/requests', () => {
  it('replays the first answer for a repeated key and appends nothing', async () => {
    const first = await post(validRequest, 'key-1').expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await head();

    const again = await post(validRequest, 'key-1');
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await head()).toBe(before);
    expect(await total()).toBe(1);
  });

  it('treats the same body with keys in another order as the same request', async () => {
    const first = await post({ title: 'A', status: 'Open', priority: 'Low' }, 'key-order').expect(201);
    const again = await post({ priority: 'Low', status: 'Open', title: 'A' }, 'key-order').expect(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('rejects the same key with a different body with 422 idempotency_key_reused', async () => {
    await post(validRequest, 'key-2').expect(201);
    const before = await head();
    const res = await post({ ...validRequest, title: 'Something else' }, 'key-2');
    expectEnvelope(res, 422, 'idempotency_key_reused');
    expect(await head()).toBe(before);
    expect(await total()).toBe(1);
  });

  it('creates separate requests for different keys and for no key', async () => {
    const a = await post(validRequest, 'key-a').expect(201);
    const b = await post(validRequest, 'key-b').expect(201);
    const c = await post(validRequest).expect(201);
    const d = await post(validRequest).expect(201);
    expect(new Set([a.body.id, b.body.id, c.body.id, d.body.id]).size).toBe(4);
    expect(await total()).toBe(4);
  });

  it('creates exactly one request for concurrent POSTs with the same key', async () => {
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => post(validRequest, 'key-race')));
    for (const res of answers) {
      expect(res.status).toBe(201);
      expect(res.body).toEqual(answers[0]?.body);
    }
    const fresh = answers.filter((res) => res.headers['idempotent-replayed'] !== 'true');
    expect(fresh).toHaveLength(1);
    expect(await total()).toBe(1);
    const events = await h.suite.eventStore.readAll({ after: 0, limit: 1000 });
    expect(events.filter((event) => event.type === 'RequestSubmitted')).toHaveLength(1);
  });

  it('replays a repeated key sent to the same route spelled with a trailing slash', async () => {
    const first = await post(validRequest, 'key-slash').expect(201);
    const again = await request(h.app)
      .post('/api/v1/requests/')
      .set(auth)
      .set('Idempotency-Key', 'key-slash')
      .send(validRequest);
    expect(again.body.id).toBe(first.body.id);
    expect(await total()).toBe(1);
  });

  it('rejects an Idempotency-Key with a space or control character with 422', async () => {
    expectEnvelope(await post(validRequest, 'has space'), 422, 'validation_error');
    expect(await total()).toBe(0);
  });

  it('keeps keys of POST and PATCH apart', async () => {
    const created = await post(validRequest, 'shared').expect(201);
    const res = await request(h.app)
      .patch(`/api/v1/requests/${created.body.id}`)
      .set(auth)
      .set('Idempotency-Key', 'shared')
      .send({ status: 'Resolved' })
      .expect(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body.status).toBe('Resolved');
  });

  it('replays a repeated PATCH without applying it twice', async () => {
    const { body } = await post(validRequest).expect(201);
    const path = `/api/v1/requests/${body.id}`;
    const first = await request(h.app)
      .patch(path)
      .set(auth)
      .set('Idempotency-Key', 'p')
      .send({ status: 'Closed' });
    expect(first.status).toBe(200);
    const before = await head();
    const again = await request(h.app)
      .patch(path)
      .set(auth)
      .set('Idempotency-Key', 'p')
      .send({ status: 'Closed' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await head()).toBe(before);
  });
});

describe('audit metadata of writes', () => {
  const lastEvent = async () => {
    const events = await h.suite.eventStore.readAll({ after: 0, limit: 1000 });
    return events[events.length - 1];
  };

  it('records the token actor, the request id and the time on the event a POST appends', async () => {
    const before = await head();
    const res = await post(validRequest).expect(201);
    const events = await h.suite.eventStore.readAll({ after: before, limit: 1000 });
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.type).toBe('RequestSubmitted');
    expect(event?.stream).toBe(`esm.request-${res.body.id}`);
    expect(event?.metadata.actor).toMatch(/^token:/);
    expect(event?.metadata.request_id).toBe(res.headers['x-request-id']);
    expect(event?.metadata.occurred_at).toBe('2026-11-21T09:30:00Z');
  });

  it('records the client X-Request-Id as the request id', async () => {
    const res = await post(validRequest).set('X-Request-Id', 'client-7').expect(201);
    expect(res.headers['x-request-id']).toBe('client-7');
    expect((await lastEvent())?.metadata.request_id).toBe('client-7');
  });

  it('records the same token actor for every write and never the token itself', async () => {
    const { body } = await post(validRequest).expect(201);
    await request(h.app)
      .patch(`/api/v1/requests/${body.id}`)
      .set(auth)
      .send({ status: 'Closed' })
      .expect(200);
    const events = (await h.suite.eventStore.readAll({ after: 0, limit: 1000 })).filter((event) =>
      event.stream.startsWith('esm.request-'),
    );
    expect(events.map((event) => event.type)).toEqual(['RequestSubmitted', 'RequestClosed']);
    const actors = new Set(events.map((event) => event.metadata.actor));
    expect(actors.size).toBe(1);
    expect(JSON.stringify(events)).not.toContain(auth.Authorization.slice('Bearer '.length));
  });

  it('records the idempotency key on the event it was used with', async () => {
    await post(validRequest, 'audit-key').expect(201);
    expect((await lastEvent())?.metadata.idempotency_key).toContain('audit-key');
  });
});
