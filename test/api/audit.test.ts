import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { esmModule } from '../../src/api/esm';
import { openEsm, TOKEN, type EsmHarness } from '../support/esm-harness';

const AUDITOR = 'auditor-token-42';
const auth = { Authorization: `Bearer ${AUDITOR}` };

let h: EsmHarness;
let audit: ReturnType<typeof createAuditApp>;

const submit = (title: string) =>
  request(h.app)
    .post('/api/v1/requests')
    .set('Authorization', `Bearer ${TOKEN}`)
    .send({ title, status: 'Open', priority: 'High', service_id: h.fixtures.accessService })
    .expect(201);

beforeEach(async () => {
  h = await openEsm();
  audit = createAuditApp(h.suite, AUDITOR);
});
afterEach(() => h.close());

describe('audit API access', () => {
  it('answers 503 while no auditor token is configured, 401 without or with a wrong token', async () => {
    const closed = createAuditApp(h.suite, undefined);
    expect((await request(closed).get('/api/v1/events').expect(503)).body.error.code).toBe('audit_disabled');
    expect((await request(audit).get('/api/v1/events').expect(401)).body.error.code).toBe('unauthorized');
    await request(audit).get('/api/v1/verify').set('Authorization', 'Bearer nope').expect(401);
    await request(audit).get('/api/v1/health').expect(200);
  });

  it('is read-only: other methods answer 405', async () => {
    await request(audit).post('/api/v1/events').set(auth).send({}).expect(405);
  });

  it('serves its description endpoints', async () => {
    const { body } = await request(audit).get('/api/openapi.json').expect(200);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/events', '/api/v1/events/live', '/api/v1/verify']),
    );
    await request(audit).get('/swagger.json').expect(200);
  });
});

describe('GET /api/v1/events', () => {
  it('lists full envelopes filtered by type and actor, paginated by position', async () => {
    await submit('First');
    await submit('Second');
    const first = await request(audit)
      .get('/api/v1/events')
      .query({ type: 'RequestSubmitted', limit: 1 })
      .set(auth)
      .expect(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.data[0]).toMatchObject({
      type: 'RequestSubmitted',
      revision: 0,
      metadata: { actor: 'token:admin' },
    });
    expect(first.body.data[0].hash).toMatch(/^[0-9a-f]{64}$/);
    const next = await request(audit)
      .get('/api/v1/events')
      .query({ type: 'RequestSubmitted', after: first.body.meta.next_after })
      .set(auth)
      .expect(200);
    expect(next.body.data.map((event: { data: { title: string } }) => event.data.title)).toEqual(['Second']);
    const seeded = await request(audit)
      .get('/api/v1/events')
      .query({ actor: 'seed', module: 'esm' })
      .set(auth);
    expect(seeded.body.data.length).toBeGreaterThan(0);
    expect(
      seeded.body.data.every((event: { metadata: { actor: string } }) => event.metadata.actor === 'seed'),
    ).toBe(true);
  });

  it('takes lists of modules, streams and types, repeated or comma-separated, any matching', async () => {
    await submit('Listed');
    const events = async (query: string) =>
      (await request(audit).get(`/api/v1/events?${query}`).set(auth).expect(200)).body.data as {
        stream: string;
        type: string;
        position: number;
      }[];
    const types = ['DepartmentAdded', 'RequestSubmitted'];
    const both = await events('type=DepartmentAdded,RequestSubmitted');
    expect(new Set(both.map((event) => event.type))).toEqual(new Set(types));
    expect(both.map((event) => event.position)).toEqual(
      [...both.map((event) => event.position)].sort((a, b) => a - b),
    );
    expect(await events('type=DepartmentAdded&type=RequestSubmitted')).toEqual(both);
    expect(await events('type=RequestSubmitted,%20DepartmentAdded,')).toEqual(both);
    const streams = [...new Set(both.map((event) => event.stream))].slice(0, 2);
    const byStream = await events(`stream=${streams.join(',')}`);
    expect(new Set(byStream.map((event) => event.stream))).toEqual(new Set(streams));
    expect(await events('module=esm&module=crm')).toEqual(await events('module=esm'));
  });

  it('refuses a module or an event type the log cannot hold, naming it (422)', async () => {
    const unknown = await request(audit).get('/api/v1/events?module=esm,crn').set(auth).expect(422);
    expect(unknown.body.error.code).toBe('validation_error');
    expect(unknown.body.error.details.issues).toEqual([
      {
        loc: ['query', 'module'],
        msg: expect.stringContaining('Unknown module crn'),
        type: 'value_error',
        input: 'crn',
      },
    ]);
    const type = await request(audit).get('/api/v1/events?type=RequestSubmited').set(auth).expect(422);
    expect(type.body.error.message).toContain('RequestSubmited');
  });

  it('rejects bad parameters: 400 for one it does not take, 422 for a bad value, in the envelope', async () => {
    const unknown = await request(audit).get('/api/v1/events').query({ colour: 'red' }).set(auth).expect(400);
    expect(unknown.body.error).toMatchObject({ code: 'unknown_parameter', details: { parameter: 'colour' } });
    await request(audit).get('/api/v1/events?limit=1&limit=2').set(auth).expect(400);
    const bad = await request(audit).get('/api/v1/events').query({ limit: 'x' }).set(auth).expect(422);
    expect(bad.body.error.code).toBe('validation_error');
    expect(bad.body.error.message).toContain('limit');
    await request(audit).get('/api/v1/events').query({ limit: 5000 }).set(auth).expect(422);
    await request(audit).get('/api/v1/events').query({ from: 'yesterday' }).set(auth).expect(422);
  });
});

describe('GET /api/v1/history/{module}/{resource}/{id}', () => {
  it('shows each event that shaped a request with the record as it was after it', async () => {
    const { body: created } = await submit('Needs approval');
    await request(h.app)
      .patch(`/api/v1/requests/${created.id}`)
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ status: 'Open', approver_id: 7 })
      .expect(200);
    const { body } = await request(audit)
      .get(`/api/v1/history/esm/requests/${created.id}`)
      .set(auth)
      .expect(200);
    expect(body.data.events[0].event.stream).toBe(`esm.request-${created.id}`);
    expect(
      body.data.events.map((step: { event: { type: string }; record: { status: string } }) => [
        step.event.type,
        step.record.status,
      ]),
    ).toEqual([
      ['RequestSubmitted', 'Pending Approval'],
      ['RequestApproved', 'Open'],
    ]);
  });

  it('finds the history by the projection when a resource names no stream', async () => {
    const { body: created } = await submit('Found by scanning');
    const withoutStreams = {
      ...esmModule,
      resources: esmModule.resources.map((resource) => ({ ...resource, stream: undefined })),
    };
    const scanning = createAuditApp({ ...h.suite, modules: [withoutStreams] }, AUDITOR);
    const path = `/api/v1/history/esm/requests/${created.id}`;
    const direct = await request(audit).get(path).set(auth).expect(200);
    expect((await request(scanning).get(path).set(auth).expect(200)).body).toEqual(direct.body);
  });

  it('answers 404 for an unknown module, resource or record', async () => {
    await request(audit).get('/api/v1/history/esm/requests/999').set(auth).expect(404);
    await request(audit).get('/api/v1/history/esm/nothing/1').set(auth).expect(404);
    await request(audit).get('/api/v1/history/xyz/requests/1').set(auth).expect(404);
  });

  it('answers 400 malformed_url for a path parameter that is not percent-encoded UTF-8', async () => {
    const res = await request(audit).get('/api/v1/history/%ED%A0%80/requests/1').set(auth).expect(400);
    expect(res.body.error.code).toBe('malformed_url');
  });
});

describe('GET /api/v1/verify', () => {
  it('reports an intact log with its digest', async () => {
    const { body } = await request(audit).get('/api/v1/verify').set(auth).expect(200);
    expect(body).toMatchObject({
      ok: true,
      problems: [],
      digest: { position: await h.suite.storedEvents.headPosition() },
    });
  });
});

describe('GET /api/v1/events/live', () => {
  let server: Server;
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  it('streams events after the given position, then new ones as they are committed', async () => {
    server = createServer(audit).listen(0);
    const { port } = server.address() as AddressInfo;
    const head = await h.suite.storedEvents.headPosition();
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/events/live?after=${head - 1}`, {
      headers: auth,
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    const until = async (predicate: () => boolean) => {
      while (!predicate()) text += new TextDecoder().decode((await reader.read()).value);
    };
    await until(() => text.includes(`id: ${head}\n`));
    await submit('Live one');
    await until(() => text.includes('event: RequestSubmitted'));
    expect(text).toContain(`id: ${head + 1}\n`);
    controller.abort();
  });

  it('takes the same lists as the log, and refuses an unknown module before it starts', async () => {
    server = createServer(audit).listen(0);
    const { port } = server.address() as AddressInfo;
    const refused = await fetch(`http://127.0.0.1:${port}/api/v1/events/live?module=esm,nope`, {
      headers: auth,
    });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('nope');
    const controller = new AbortController();
    const response = await fetch(
      `http://127.0.0.1:${port}/api/v1/events/live?module=crm&module=esm&type=RequestSubmitted,RequestApproved`,
      { headers: auth, signal: controller.signal },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = '';
    await submit('Tailed by a list');
    while (!text.includes('event: RequestSubmitted'))
      text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
  });
});
