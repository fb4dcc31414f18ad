import request from 'supertest';
import { addRequester, openEsm, type EsmHarness } from '../support/esm-harness';
import { REQUEST, auth, expectEnvelope, expectShape, namedFields, validRequest } from './spec';

let h: EsmHarness;
beforeEach(async () => {
  h = await openEsm();
});
afterEach(() => h.close());

const post = (body?: string | object) => {
  const req = request(h.app).post('/api/v1/requests').set(auth);
  return body === undefined ? req : req.send(body);
};

describe('POST /api/v1/requests authentication', () => {
  it('answers 503 writes_disabled when no token is configured, and health says writes are off', async () => {
    const open = await openEsm({ token: null });
    try {
      const res = await request(open.app).post('/api/v1/requests').set(auth).send(validRequest);
      expectEnvelope(res, 503, 'writes_disabled');
      expect((await request(open.app).get('/api/v1/health')).body.writes_enabled).toBe(false);
      expect((await request(open.app).get('/api/v1/requests')).body.meta.total).toBe(0);
    } finally {
      await open.close();
    }
  });

  it('answers 401 with WWW-Authenticate for a missing token', async () => {
    const res = await request(h.app).post('/api/v1/requests').send(validRequest);
    expectEnvelope(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers 401 with WWW-Authenticate for a wrong token', async () => {
    const res = await request(h.app)
      .post('/api/v1/requests')
      .set('Authorization', 'Bearer not-the-token')
      .send(validRequest);
    expectEnvelope(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers 401 for a token sent with another scheme', async () => {
    const res = await request(h.app)
      .post('/api/v1/requests')
      .set('Authorization', 'Basic dGVzdA==')
      .send(validRequest);
    expectEnvelope(res, 401, 'unauthorized');
  });

  it('appends nothing for an unauthorised write', async () => {
    const head = await h.suite.eventStore.headPosition();
    await request(h.app).post('/api/v1/requests').send(validRequest).expect(401);
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });
});

describe('POST /api/v1/requests creation', () => {
  it('creates a request and answers 201 with the full Request record, its requester by name', async () => {
    const requester = await addRequester(h.suite);
    const res = await post({
      ...validRequest,
      service_id: h.fixtures.laptopService,
      requester_id: requester,
    }).expect(201);
    expect(res.type).toBe('application/json');
    expectShape(res.body, REQUEST);
    expect(res.body).toEqual({
      id: 1,
      ref: 'REQ-000001',
      title: 'Laptop for Ana',
      service_id: h.fixtures.laptopService,
      department_id: h.fixtures.itDepartment,
      requester_id: requester,
      requester_name: 'Ana Silva',
      assignee_id: null,
      assignee_name: null,
      approver_id: null,
      status: 'Open',
      next_statuses: ['Replied', 'Resolved', 'Closed'],
      priority: 'High',
      priority_rank: 3,
      form_data: null,
      created: '2026-11-21T09:30:00Z',
      response_by: '2026-11-23T10:00:00Z',
      resolution_by: '2026-11-23T13:00:00Z',
      first_responded_on: null,
      approved_on: null,
      resolved_on: null,
      feedback_rating: null,
      sla_state: 'on_track',
      sla_targets: { response: 'on_track', resolution: 'on_track' },
      sla_changes_at: '2026-11-23T09:45:00Z',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it.each([
    ['Urgent', '2026-11-23T09:30:00Z', '2026-11-23T11:00:00Z'],
    ['High', '2026-11-23T10:00:00Z', '2026-11-23T13:00:00Z'],
    ['Medium', '2026-11-23T17:00:00Z', '2026-11-25T17:00:00Z'],
    ['Low', '2026-11-25T17:00:00Z', '2026-12-03T17:00:00Z'],
  ])(
    'sets the SLA targets of a %s request on a 24h service, in business hours from Monday',
    async (priority, responseBy, resolutionBy) => {
      const res = await post({ ...validRequest, priority, service_id: h.fixtures.laptopService }).expect(201);
      expect(res.body).toMatchObject({ priority, response_by: responseBy, resolution_by: resolutionBy });
    },
  );

  it('uses the 24h default SLA for a request without a service', async () => {
    const res = await post({ ...validRequest, priority: 'Medium' }).expect(201);
    expect(res.body).toMatchObject({
      response_by: '2026-11-23T17:00:00Z',
      resolution_by: '2026-11-25T17:00:00Z',
    });
  });

  it('numbers requests in order with matching refs', async () => {
    const first = await post(validRequest).expect(201);
    const second = await post(validRequest).expect(201);
    expect(second.body.id).toBe(first.body.id + 1);
    expect(second.body.ref).toBe(`REQ-${String(second.body.id).padStart(6, '0')}`);
  });

  it('answers with a Location header that points at the new record', async () => {
    const res = await post(validRequest).expect(201);
    expect(res.headers.location).toBe(`/api/v1/requests/${res.body.id}`);
    const found = await request(h.app)
      .get(res.headers.location as string)
      .expect(200);
    expect(found.body).toEqual(res.body);
  });

  it('shows the new request in the list at once (read-your-writes)', async () => {
    const res = await post(validRequest).expect(201);
    const listed = await request(h.app).get('/api/v1/requests').expect(200);
    expect(listed.body.meta.total).toBe(1);
    expect(listed.body.data).toEqual([res.body]);
  });

  it('starts a request for a service that requires approval in Pending Approval', async () => {
    const res = await post({ ...validRequest, service_id: h.fixtures.accessService }).expect(201);
    expect(res.body).toMatchObject({ status: 'Pending Approval', approver_id: null, approved_on: null });
  });

  it('keeps the department the requester names over the service department', async () => {
    const res = await post({ ...validRequest, department_id: h.fixtures.itDepartment, form_data: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ department_id: h.fixtures.itDepartment, form_data: '{"a":1}' });
  });

  it('accepts status and priority in any letter case and answers with the canonical spelling', async () => {
    const res = await post({ title: 'Laptop', status: 'open', priority: 'high' }).expect(201);
    expect(res.body).toMatchObject({ status: 'Open', priority: 'High' });
    const pending = await post({ title: 'Laptop', status: 'PENDING APPROVAL', priority: 'uRgEnT' }).expect(
      201,
    );
    expect(pending.body).toMatchObject({ status: 'Pending Approval', priority: 'Urgent' });
  });

  it('accepts explicit nulls for the optional fields', async () => {
    const body = {
      ...validRequest,
      service_id: null,
      department_id: null,
      requester_id: null,
      form_data: null,
    };
    const res = await post(body).expect(201);
    expect(res.body).toMatchObject({
      service_id: null,
      department_id: null,
      requester_id: null,
      requester_name: null,
      form_data: null,
    });
  });
});

describe('POST /api/v1/requests validation', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['an unknown field', { ...validRequest, assignee_id: 3 }, ['assignee_id']],
    ['a missing title', { status: 'Open', priority: 'High' }, ['title']],
    ['a missing status', { title: 'x', priority: 'High' }, ['status']],
    ['a missing priority', { title: 'x', status: 'Open' }, ['priority']],
    ['a numeric title', { ...validRequest, title: 42 }, ['title']],
    ['a blank title', { ...validRequest, title: '   ' }, ['title']],
    ['a string service_id', { ...validRequest, service_id: '1' }, ['service_id']],
    ['a fractional requester_id', { ...validRequest, requester_id: 1.5 }, ['requester_id']],
    ['an unknown status value', { ...validRequest, status: 'Resolved' }, ['status']],
    ['an unknown priority value', { ...validRequest, priority: 'Critical' }, ['priority']],
    ['an empty object', {}, ['title', 'status', 'priority']],
  ])('rejects a creation payload with %s, naming the field', async (_name, body, fields) => {
    const res = await post(body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(fields);
    for (const field of fields) expect(res.body.error.message).toContain(field);
  });

  it('rejects an unknown service_id, naming the field', async () => {
    const res = await post({ ...validRequest, service_id: 999 });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['service_id']);
  });

  it('rejects an inactive service, naming the field', async () => {
    const res = await post({ ...validRequest, service_id: h.fixtures.retiredService });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['service_id']);
  });

  it('rejects a requester_id that names no employee, naming the field', async () => {
    const res = await post({ ...validRequest, requester_id: 999 });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['requester_id']);
    expect(res.body.error.message).toContain('employee 999 does not exist');
  });

  it('rejects an unknown department_id, naming the field', async () => {
    const res = await post({ ...validRequest, department_id: 999 });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['department_id']);
  });

  it('rejects a request without a body with a 422 envelope', async () => {
    const res = await post();
    expectEnvelope(res, 422, 'validation_error');
    expect(res.body.error.details.issues[0].loc).toEqual(['body']);
  });

  it('appends nothing for a rejected payload', async () => {
    const head = await h.suite.eventStore.headPosition();
    await post({ ...validRequest, service_id: 999 }).expect(422);
    await post({ ...validRequest, extra: true }).expect(422);
    expect(await h.suite.eventStore.headPosition()).toBe(head);
    expect((await request(h.app).get('/api/v1/requests')).body.meta.total).toBe(0);
  });

  it('describes a wrong type as a type error, not as a missing field', async () => {
    const res = await post({ ...validRequest, service_id: '1' });
    expect(res.body.error.details.issues[0]).toMatchObject({
      loc: ['body', 'service_id'],
      type: 'number_type',
    });
    expect(res.body.error.message).toBe('service_id: Input should be a valid number');
  });
});

describe('POST /api/v1/requests body handling', () => {
  const raw = (text: string, type = 'application/json') => post().set('Content-Type', type).send(text);

  it.each(['{"title": ', '{bad json}', "{'title': 'x'}"])(
    'rejects the malformed JSON body %s with 400',
    async (text) => {
      expectEnvelope(await raw(text), 400, 'malformed_json');
    },
  );

  it('rejects a body over 100 KiB with 413', async () => {
    const big = JSON.stringify({ ...validRequest, form_data: 'x'.repeat(101 * 1024) });
    expectEnvelope(await raw(big), 413, 'payload_too_large');
  });

  it('rejects a non-JSON content type with a body with 415', async () => {
    expectEnvelope(
      await raw('title=Laptop', 'application/x-www-form-urlencoded'),
      415,
      'unsupported_media_type',
    );
    expectEnvelope(await raw(JSON.stringify(validRequest), 'text/plain'), 415, 'unsupported_media_type');
  });

  it('accepts a JSON body sent with an explicit UTF-8 charset', async () => {
    await raw(JSON.stringify(validRequest), 'application/json; charset=utf-8').expect(201);
  });
});
