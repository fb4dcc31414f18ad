import request from 'supertest';
import { clmModule } from '../../src/api/clm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { ACME, GLOBEX, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';
import { expectEnvelope, namedFields } from './spec';

let h: ModuleHarness<ClmFixtures>;
beforeEach(async () => {
  h = await openModule(clmModule, { fixtures: clmFixtures });
});
afterEach(() => h.close());

const owner = {
  Authorization: `Bearer ${TOKEN}`,
  'X-Svc-Organisation': ACME,
  'X-Svc-Actor': 'm-acme-owner',
};
const post = (body: unknown, headers: Record<string, string> = {}) =>
  request(h.app)
    .post('/api/v1/obligations')
    .set({ ...owner, ...headers })
    .send(body as object);
const valid = () => ({
  contract_id: h.fixtures.active,
  title: 'Deliver SOC 2 Type II report',
  due_date: '2027-02-15',
});

describe('POST /api/v1/obligations', () => {
  it('creates the obligation: 201 with the record, which a GET then shows', async () => {
    const res = await post(valid()).set('X-Request-Id', 'req-obligation-1').expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^obl_[0-9a-z]{19}$/),
      workspace_id: ACME,
      contract_id: h.fixtures.active,
      title: 'Deliver SOC 2 Type II report',
      due_date: '2027-02-15',
      status: 'open',
      completed_on: null,
      created_at: '2026-11-21T09:30:00Z',
      created_by: 'm-acme-owner',
      updated_at: expect.any(String),
    });
    expect(res.headers.location).toBe(`/api/v1/obligations/${res.body.id}`);
    const read = await request(h.app).get(`/api/v1/obligations/${res.body.id}`).set(owner).expect(200);
    expect(read.body).toEqual(res.body);
    const contract = await request(h.app)
      .get(`/api/v1/contracts/${h.fixtures.active}`)
      .set(owner)
      .expect(200);
    expect(contract.body.open_obligations).toBe(4);
  });

  it('appends an ObligationCreated event with the actor, the workspace and the request id', async () => {
    const res = await post(valid()).set('X-Request-Id', 'req-obligation-2').expect(201);
    const [event] = await h.suite.eventStore.readStream(`clm.obligation-${res.body.id}`);
    expect(event).toMatchObject({
      type: 'ObligationCreated',
      data: { id: res.body.id, workspace_id: ACME, contract_id: h.fixtures.active, due_date: '2027-02-15' },
      metadata: {
        actor: 'token:admin',
        member: 'm-acme-owner',
        organisation: ACME,
        request_id: 'req-obligation-2',
      },
    });
  });

  it('reports an obligation created with a past due date as overdue at once', async () => {
    const res = await post({ ...valid(), due_date: '2026-11-20' }).expect(201);
    expect(res.body.status).toBe('overdue');
  });

  it('answers a repeated Idempotency-Key with the first result and appends nothing', async () => {
    const first = await post(valid(), { 'Idempotency-Key': 'obl-42' }).expect(201);
    const head = await h.suite.eventStore.headPosition();
    const again = await post(valid(), { 'Idempotency-Key': 'obl-42' }).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it.each([
    ['the same body', () => valid()],
    ['another body', () => ({ ...valid(), title: 'Another title' })],
  ])(
    "keeps Idempotency-Keys per workspace: another workspace's key with %s is a new write of its own",
    async (_label, body) => {
      const first = await post(valid(), { 'Idempotency-Key': 'obl-shared' }).expect(201);
      const globex = {
        'X-Svc-Organisation': GLOBEX,
        'X-Svc-Actor': 'm-globex-owner',
        'Idempotency-Key': 'obl-shared',
      };
      const other = await post({ ...body(), contract_id: h.fixtures.globexContract }, globex).expect(201);
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(other.body.id).not.toBe(first.body.id);
      expect(other.body.workspace_id).toBe(GLOBEX);
    },
  );

  it('keeps Idempotency-Keys per member: another member of the workspace gets no replay', async () => {
    const first = await post(valid(), { 'Idempotency-Key': 'obl-member' }).expect(201);
    const editor = { 'X-Svc-Actor': 'm-acme-editor', 'Idempotency-Key': 'obl-member' };
    const other = await post(valid(), editor).expect(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('answers 404 for a contract that does not exist', async () => {
    expectEnvelope(await post({ ...valid(), contract_id: 'ctr_nothing' }), 404, 'not_found');
  });

  it.each([
    [{ extra: 1 }, ['extra']],
    [{ due_date: '2026-02-30' }, ['due_date']],
    [{ due_date: '15.02.2027' }, ['due_date']],
    [{ due_date: '2027-02-15T10:00:00Z' }, ['due_date']],
    [{ title: '   ' }, ['title']],
    [{ title: 42 }, ['title']],
    [{ contract_id: '' }, ['contract_id']],
  ])('rejects %j with 422 naming %j, appending nothing', async (change, fields) => {
    const head = await h.suite.eventStore.headPosition();
    const res = await post({ ...valid(), ...change });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(fields);
    expect(await h.suite.eventStore.headPosition()).toBe(head);
  });

  it('rejects missing fields, naming each', async () => {
    const res = await post({});
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res).sort()).toEqual(['contract_id', 'due_date', 'title']);
  });

  it('answers malformed JSON with 400 and a missing body with 422', async () => {
    const bad = await request(h.app)
      .post('/api/v1/obligations')
      .set(owner)
      .set('Content-Type', 'application/json')
      .send('{"contract_id":');
    expectEnvelope(bad, 400, 'malformed_json');
    expectEnvelope(await request(h.app).post('/api/v1/obligations').set(owner), 422, 'validation_error');
  });
});

const sign = (id: string, body: object, headers: Record<string, string> = {}) =>
  request(h.app)
    .post(`/contracts/${id}/signatures`)
    .set({ ...owner, ...headers })
    .send(body);
const decoded = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

describe('POST /contracts/{id}/signatures', () => {
  it('prepares a DocuSign draft envelope for the current version, sending nothing', async () => {
    const res = await sign(h.fixtures.approved, {
      provider: 'docusign',
      subject: 'Please sign the MSA',
    }).expect(201);
    const contract = (await request(h.app).get(`/api/v1/contracts/${h.fixtures.approved}`).set(owner)).body;
    const current = contract.versions[1];
    expect(res.body).toMatchObject({
      provider: 'docusign',
      mode: 'draft',
      sent: false,
      callbacks: 'not processed',
      contract_id: h.fixtures.approved,
      version: 2,
      content_sha256: current.content_sha256,
      prepared_by: 'm-acme-owner',
      signers: [{ name: 'Henrik Brandt', email: 'henrik@nordwind.example' }],
      endpoint: { method: 'POST', content_type: 'application/json' },
    });
    const { payload } = res.body;
    expect(payload).toMatchObject({
      status: 'created',
      emailSubject: 'Please sign the MSA',
      documents: [{ documentId: '1', name: 'ACME-MSA-2026-001-v2', fileExtension: 'txt' }],
      recipients: {
        signers: [
          {
            email: 'henrik@nordwind.example',
            name: 'Henrik Brandt',
            recipientId: '1',
            routingOrder: '1',
            tabs: { signHereTabs: [{ anchorString: '/sn1/', documentId: '1' }] },
          },
        ],
      },
    });
    expect(payload.customFields.textCustomFields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'contract_id', value: h.fixtures.approved }),
        expect.objectContaining({ name: 'contract_version', value: '2' }),
      ]),
    );
    const text = decoded(payload.documents[0].documentBase64);
    expect(text.startsWith('Version two of the MSA.')).toBe(true);
    expect(text).toContain('Signature: /sn1/');
  });

  it('prepares a Dropbox Sign draft in test mode with the named signers in order', async () => {
    const signers = [
      { name: 'Henrik Brandt', email: 'henrik@nordwind.example' },
      { name: 'Julia Hartmann', email: 'julia@acme.example' },
    ];
    const res = await sign(h.fixtures.approved, {
      provider: 'dropbox_sign',
      signers,
      message: 'As agreed.',
    }).expect(201);
    expect(res.body).toMatchObject({
      provider: 'dropbox_sign',
      mode: 'draft',
      sent: false,
      version: 2,
      signers,
    });
    expect(res.body.endpoint).toMatchObject({ url: 'https://api.hellosign.com/v3/unclaimed_draft/create' });
    const { payload } = res.body;
    expect(payload).toMatchObject({
      type: 'request_signature',
      test_mode: true,
      message: 'As agreed.',
      use_text_tags: true,
      signers: [
        { email_address: 'henrik@nordwind.example', name: 'Henrik Brandt', order: 0 },
        { email_address: 'julia@acme.example', name: 'Julia Hartmann', order: 1 },
      ],
      metadata: { contract_id: h.fixtures.approved, contract_version: '2', workspace_id: ACME },
    });
    expect(Object.keys(payload.metadata).length).toBeLessThanOrEqual(10);
    const text = decoded(payload.files[0].content_base64);
    expect(text).toContain('[sig|req|signer2]');
  });

  it('appends an audited SignaturePayloadPrepared event with the payload hash', async () => {
    const res = await sign(h.fixtures.approved, { provider: 'docusign' })
      .set('X-Request-Id', 'req-sign-1')
      .expect(201);
    const events = await h.suite.eventStore.readStream(`clm.contract-${h.fixtures.approved}`);
    expect(events[events.length - 1]).toMatchObject({
      type: 'SignaturePayloadPrepared',
      data: { provider: 'docusign', version: 2, payload_sha256: res.body.payload_sha256 },
      metadata: {
        actor: 'token:admin',
        member: 'm-acme-owner',
        organisation: ACME,
        request_id: 'req-sign-1',
      },
    });
    const contract = await request(h.app)
      .get(`/api/v1/contracts/${h.fixtures.approved}`)
      .set(owner)
      .expect(200);
    expect(contract.body.last_signature_payload).toMatchObject({
      provider: 'docusign',
      version: 2,
      payload_sha256: res.body.payload_sha256,
      prepared_by: 'm-acme-owner',
    });
  });

  it('refuses a contract that is already signed (409) or has no version (409)', async () => {
    expectEnvelope(await sign(h.fixtures.active, { provider: 'docusign' }), 409, 'illegal_transition');
    expectEnvelope(await sign(h.fixtures.draft, { provider: 'docusign' }), 409, 'illegal_transition');
  });

  it('asks for signers when the counterparty has no signatory contact (422)', async () => {
    const res = await sign(h.fixtures.inReview, { provider: 'dropbox_sign' });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['signers']);
    await sign(h.fixtures.inReview, {
      provider: 'dropbox_sign',
      signers: [{ name: 'Q', email: 'q@quiet.example' }],
    }).expect(201);
  });

  it.each([
    [{}, ['provider']],
    [{ provider: 'adobe_sign' }, ['provider']],
    [{ provider: 'docusign', send: true }, ['send']],
    [{ provider: 'docusign', signers: [] }, ['signers']],
    [{ provider: 'docusign', signers: [{ name: 'A', email: 'not-an-email' }] }, ['signers.0.email']],
    [
      { provider: 'docusign', signers: [{ name: 'A', email: 'a@x.example', phone: '1' }] },
      ['signers.0.phone'],
    ],
    [
      {
        provider: 'docusign',
        signers: [
          { name: 'A', email: 'a@x.example' },
          { name: 'B', email: 'A@x.example' },
        ],
      },
      ['signers'],
    ],
    [{ provider: 'docusign', subject: 'x'.repeat(101) }, ['subject']],
  ])('rejects %j with 422 naming %j', async (body, fields) => {
    const res = await sign(h.fixtures.approved, body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(fields);
  });

  it('answers an unknown contract with 404', async () => {
    expectEnvelope(await sign('ctr_nothing', { provider: 'docusign' }), 404, 'not_found');
  });
});
