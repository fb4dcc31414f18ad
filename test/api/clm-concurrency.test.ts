import request from 'supertest';
import { clmModule } from '../../src/api/clm';
import { openModule, TOKEN, type ModuleHarness } from '../support/module-harness';
import { ACME, clmFixtures, type ClmFixtures } from '../support/clm-fixtures';

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

describe('many members creating obligations on one contract at once', () => {
  it('creates every one, each with its own id, and the contract counts them all', async () => {
    const contract = () =>
      request(h.app).get(`/api/v1/contracts/${h.fixtures.active}`).set(owner).expect(200);
    const before = (await contract()).body.open_obligations as number;

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        request(h.app)
          .post('/api/v1/obligations')
          .set(owner)
          .send({ contract_id: h.fixtures.active, title: `Quarterly review ${n}`, due_date: '2027-03-31' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(30);

    expect((await contract()).body.open_obligations).toBe(before + 30);
    const listed = await request(h.app)
      .get('/api/v1/obligations')
      .query({ contract_id: h.fixtures.active, q: 'quarterly review', limit: 200 })
      .set(owner)
      .expect(200);
    expect(listed.body.meta.total).toBe(30);
  });
});
