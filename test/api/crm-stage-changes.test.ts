import request from 'supertest';
import { crmModule } from '../../src/api/crm';
import { addCompany, addContact, moveOpportunity, openOpportunity } from '../../src/commands/crm/handlers';
import { crmStreams } from '../../src/events/crm';
import { createSeedContext, type SeedContext } from '../../src/seed/context';
import { describeReads, expectInvalid, expectRecord, listed } from '../support/module-api';
import { allDocuments, openModule, type ModuleHarness } from '../support/module-harness';
import { company, contact, deal } from '../support/crm-fixtures';
import { auth, expectEnvelope } from './spec';

/** Two deals: one taken from Qualification to Lost on 1 November, one opened in Proposal and Won on the 5th. */
async function fixtures(seed: SeedContext) {
  const { commands } = seed;
  const { id: companyId } = await addCompany(commands, company({}));
  const { id: contactId } = await addContact(commands, contact({ company_id: companyId, salutation: null }));
  const { id: lost } = await openOpportunity(
    commands,
    deal({ company_id: companyId, contact_id: contactId, next_step: null }),
  );
  await moveOpportunity(commands, lost, { stage: 'Demo' });
  await moveOpportunity(commands, lost, { stage: 'Proposal' });
  await moveOpportunity(commands, lost, {
    stage: 'Lost',
    lost_reason: 'Other',
    lost_notes: 'Budget moved to the group programme.',
  });
  const { id: won } = await openOpportunity(
    commands,
    deal({
      name: 'Service Desk pilot',
      company_id: companyId,
      contact_id: contactId,
      stage: 'Proposal',
      next_step: null,
    }),
  );
  seed.at(new Date('2026-11-05T10:00:00Z'));
  await moveOpportunity(commands, won, { stage: 'Won' });
  return { lost, won };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;
let h: ModuleHarness<Fixtures>;
beforeAll(async () => {
  h = await openModule(crmModule, { fixtures });
});
afterAll(() => h.close());

const moves = async (query: Record<string, string | number>) =>
  (
    await request(h.app)
      .get('/api/v1/stage-changes')
      .query({ limit: 200, ...query })
      .expect(200)
  ).body.data as Record<string, unknown>[];

describeReads(crmModule, () => h, [
  {
    path: 'stage-changes',
    total: 6,
    search: { q: 'GROUP programme', field: 'lost_notes', value: 'Budget moved to the group programme.' },
  },
]);

describe('GET /api/v1/stage-changes', () => {
  it("lists a deal's history in the order it happened, its opening first", async () => {
    const history = await moves({ opportunity_id: h.fixtures.lost });
    expect(
      history.map(({ from_stage, to_stage, probability }) => [from_stage, to_stage, probability]),
    ).toEqual([
      [null, 'Qualification', 10],
      ['Qualification', 'Demo', 25],
      ['Demo', 'Proposal', 50],
      ['Proposal', 'Lost', 0],
    ]);
    expect(history[3]).toMatchObject({
      lost_reason: 'Other',
      lost_notes: 'Budget moved to the group programme.',
    });
    expect(history.slice(0, 3).every((change) => change.lost_reason === null)).toBe(true);
  });

  it('names each change by the position of its event in the log, and answers it by that id', async () => {
    const events = await h.suite.eventStore.readStream(crmStreams.opportunity(h.fixtures.won));
    const history = await moves({ opportunity_id: h.fixtures.won });
    expect(history.map((change) => change.id)).toEqual(events.map((event) => event.position));
    const one = await request(h.app).get(`/api/v1/stage-changes/${history[1]?.id}`).expect(200);
    expectRecord(crmModule, 'stage-changes', one.body);
    expect(one.body).toEqual(history[1]);
    expect(one.body).toMatchObject({ to_stage: 'Won', probability: 100, changed_at: '2026-11-05T10:00:00Z' });
  });

  it('filters by the stage left and the stage entered, in any letter case, and by time', async () => {
    const f = h.fixtures;
    const ids = (query: Record<string, string | number>) =>
      listed(h.app, 'stage-changes', query, 'opportunity_id');
    expect(await ids({ to_stage: 'won' })).toEqual([f.won]);
    expect(await ids({ from_stage: 'PROPOSAL' })).toEqual([f.lost, f.won]);
    expect(await ids({ changed_after: '2026-11-02' })).toEqual([f.won]);
    expect(await ids({ changed_before: '2026-11-05T10:00:00Z' })).toHaveLength(5);
  });

  it('refuses a stage or a time that is none, with 422 naming the parameter', async () => {
    const get = (query: Record<string, string>) => request(h.app).get('/api/v1/stage-changes').query(query);
    expectInvalid(await get({ to_stage: 'Closed Won' }), ['query', 'to_stage']);
    expectInvalid(await get({ changed_after: '2026-02-30' }), ['query', 'changed_after']);
    expectInvalid(await get({ opportunity_id: 'one' }), ['query', 'opportunity_id']);
  });
});

describe('stage changes written through PATCH /api/v1/opportunities/{id}', () => {
  let w: ModuleHarness<Fixtures>;
  beforeAll(async () => {
    w = await openModule(crmModule, { fixtures });
  });
  afterAll(() => w.close());

  it('shows a move as soon as the write answers, and none for a move that changes nothing', async () => {
    const seed = createSeedContext(w.suite.eventStore, w.suite.ids, 'fixtures:renewal');
    const { id } = await openOpportunity(seed.commands, deal({ name: 'Renewal' }));
    await w.settle();
    const patch = (stage: string) =>
      request(w.app).patch(`/api/v1/opportunities/${id}`).set(auth).send({ stage }).expect(200);
    const history = (field: string) => listed(w.app, 'stage-changes', { opportunity_id: id }, field);

    const answer = await patch('Negotiation');
    expect(await history('id')).toEqual([expect.any(Number), Number(answer.headers['x-event-position'])]);
    await patch('negotiation');
    expect(await history('to_stage')).toEqual(['Qualification', 'Negotiation']);
  });

  it('keeps the reason a move gives in the stage history, and refuses an empty one', async () => {
    const seed = createSeedContext(w.suite.eventStore, w.suite.ids, 'fixtures:reasoned');
    const { id } = await openOpportunity(seed.commands, deal({ name: 'Reasoned' }));
    await w.settle();
    const move = (body: object) => request(w.app).patch(`/api/v1/opportunities/${id}`).set(auth).send(body);
    await move({ stage: 'Proposal', reason: 'Budget confirmed on the call' }).expect(200);
    const history = (field: string) => listed(w.app, 'stage-changes', { opportunity_id: id }, field);
    expect(await history('reason')).toEqual([null, 'Budget confirmed on the call']);
    expectEnvelope(await move({ stage: 'Negotiation', reason: '  ' }), 422, 'validation_error');
  });
});

describe('stage changes of the demo data', () => {
  let demo: ModuleHarness<undefined>;
  beforeAll(async () => {
    demo = await openModule(crmModule, { demo: true });
  }, 60_000);
  afterAll(() => demo.close());

  it('give every demo deal a history that starts open and ends in the stage it is in', async () => {
    const changes = await allDocuments(demo, 'crm.stage-changes');
    const opportunities = await allDocuments(demo, 'crm.opportunities');
    expect(changes.length).toBeGreaterThan(opportunities.length);
    for (const opportunity of opportunities) {
      const history = changes.filter((change) => change.opportunity_id === opportunity.id);
      expect(history[0]?.from_stage).toBeNull();
      expect(history[history.length - 1]?.to_stage).toBe(opportunity.stage);
    }
  });
});
