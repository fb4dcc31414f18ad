import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { createIdentity } from '../../src/api/kit/identity';
import { openEsm, TOKEN, type EsmHarness } from '../support/esm-harness';
import { validRequest } from './spec';

const AUDITOR = 'auditor-token-42';
const ADMIN = 'admin-token-0123456789';

let h: EsmHarness;
let app: ReturnType<typeof createAuditApp>;
beforeAll(async () => {
  h = await openEsm();
  const services = { ...h.suite, config: { apiToken: ADMIN } };
  app = createAuditApp(
    services,
    AUDITOR,
    undefined,
    createIdentity({ auditToken: AUDITOR, apiToken: ADMIN }),
  );
  // The subject erased below: a service request (esm.request-1).
  await request(h.app)
    .post('/api/v1/requests')
    .set('Authorization', `Bearer ${TOKEN}`)
    .send(validRequest)
    .expect(201);
});
afterAll(() => h.close());

const erase = (token: string, body: unknown) =>
  request(app)
    .post('/api/v1/erasures')
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);
const read = (path: string) => request(app).get(path).set('Authorization', `Bearer ${AUDITOR}`);

describe('erasures on the audit API', () => {
  it('takes the admin role to erase: 403 for the auditor, 401 without a token', async () => {
    const body = { subject: 'esm.request-1', reason: 'Art. 17 request' };
    expect((await erase(AUDITOR, body)).status).toBe(403);
    expect((await request(app).post('/api/v1/erasures').send(body)).status).toBe(401);
  });

  it('answers 201 with the erasure and where to read it again', async () => {
    const created = await erase(ADMIN, { subject: 'esm.request-1', reason: 'Art. 17 request' }).expect(201);
    expect(created.body).toMatchObject({ subject: 'esm.request-1', reason: 'Art. 17 request' });
    expect(created.headers.location).toBe(`/api/v1/erasures/${created.body.id}`);
    expect((await read(created.headers.location as string).expect(200)).body).toEqual(created.body);
    expect((await read('/api/v1/erasures?subject=esm.request-1').expect(200)).body.data).toEqual([
      created.body,
    ]);
  });

  it('answers 404 for an erasure that is not there and 422 for an id that is not one', async () => {
    expect((await read('/api/v1/erasures/999').expect(404)).body.error.code).toBe('not_found');
    expect((await read('/api/v1/erasures/abc').expect(422)).body.error.details.issues[0].loc).toEqual([
      'path',
      'id',
    ]);
  });

  it('answers 422 for a subject that is not a stream of a person, or no reason', async () => {
    for (const body of [
      { subject: 'Alice Example', reason: 'Art. 17 request' },
      { subject: 'esm.request-1', reason: '   ' },
      { subject: 'esm.request-1' },
    ]) {
      expect((await erase(ADMIN, body).expect(422)).body.error.code).toBe('validation_error');
    }
    const refused = await erase(ADMIN, { subject: 'Alice Example', reason: 'Art. 17 request' });
    expect(refused.body.error.details.issues).toEqual([
      expect.objectContaining({
        loc: ['body', 'subject'],
        msg: 'Input should be a data subject, the stream of a person: hrm.employee-42, crm.contact-3',
      }),
    ]);
  });
});

describe('erasing a subject the suite holds no record of', () => {
  const total = async () => (await read('/api/v1/erasures').expect(200)).body.meta.total as number;

  it.each([
    ['a typo in the kind of record', 'esm.requst-1', 'esm.request-1'],
    ['a typo in the id', 'esm.request-11', 'esm.request-1'],
    ['an id beyond the last record', 'esm.request-999999', 'esm.request-'],
    ['a module that does not exist', 'foo.bar-1', ''],
  ])(
    'answers 404 unknown_subject for %s, records nothing, and names the nearest known subjects',
    async (_, subject, near) => {
      const before = await total();
      const refused = await erase(ADMIN, { subject, reason: 'Art. 17 request' }).expect(404);
      expect(refused.body.error).toMatchObject({ code: 'unknown_subject', details: { subject } });
      const nearest = refused.body.error.details.nearest as string[];
      expect(nearest.length).toBeLessThanOrEqual(5);
      if (near) expect(nearest[0]).toContain(near);
      expect(refused.body.error.message).toContain(subject);
      expect(await total()).toBe(before);
      expect((await read(`/api/v1/erasures?subject=${subject}`).expect(200)).body.data).toEqual([]);
    },
  );
});
