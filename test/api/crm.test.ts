import request from 'supertest';
import { crmModule } from '../../src/api/crm';
import {
  addCompany,
  addContact,
  captureLead,
  changeLeadStatus,
  moveOpportunity,
  openOpportunity,
} from '../../src/commands/crm/handlers';
import { STAGE_PROBABILITY } from '../../src/events/crm';
import type { SeedContext } from '../../src/seed/context';
import {
  describeModuleBasics,
  describeReads,
  describeWriteGuards,
  expectInvalid,
  expectRecord,
  listed,
} from '../support/module-api';
import { openModule, type ModuleHarness, allDocuments } from '../support/module-harness';
import { company, contact, deal, lead } from '../support/crm-fixtures';
import { auth, expectEnvelope, namedFields } from './spec';

/** Two companies with three people, two leads (one converted) and three deals (one Won). */
async function fixtures({ commands }: SeedContext) {
  const { id: nordlicht } = await addCompany(commands, company({}));
  const { id: castellana } = await addCompany(
    commands,
    company({
      name: 'Castellana Hotels S.A.',
      domain: 'castellanahotels.example',
      industry: 'Hospitality',
      country: 'ES',
      city: 'Madrid',
      status: 'Prospect',
      owner: 'Diego Navarro',
    }),
  );
  const { id: katrin } = await addContact(commands, contact({ company_id: nordlicht }));
  const { id: felix } = await addContact(
    commands,
    contact({
      company_id: nordlicht,
      first_name: 'Felix',
      last_name: 'Koch',
      email: 'felix.koch@nordlichtlogistics.example',
      job_title: 'Controller',
      department: 'Finance',
      is_primary: false,
    }),
  );
  const { id: lucia } = await addContact(
    commands,
    contact({
      company_id: castellana,
      first_name: 'Lucía',
      last_name: 'García',
      email: 'lucia.garcia@castellanahotels.example',
      job_title: 'Head of Operations',
    }),
  );
  const { id: fresh } = await captureLead(commands, lead({}));
  const { id: converted } = await captureLead(
    commands,
    lead({
      first_name: 'Lucía',
      last_name: 'García',
      email: 'lucia.garcia@castellanahotels.example',
      organization: 'Castellana Hotels S.A.',
      source: 'Website',
      owner: 'Diego Navarro',
    }),
  );
  for (const status of ['Contacted', 'Qualified', 'Converted'] as const)
    await changeLeadStatus(commands, converted, status);
  const { id: renewal } = await openOpportunity(
    commands,
    deal({
      name: 'Nordlicht \u2013 HR Suite renewal',
      company_id: nordlicht,
      contact_id: katrin,
      stage: 'Proposal',
    }),
  );
  const { id: won } = await openOpportunity(
    commands,
    deal({ name: 'Nordlicht \u2013 Service Desk pilot', company_id: nordlicht, contact_id: felix }),
  );
  await moveOpportunity(commands, won, { stage: 'Won' });
  const { id: hotels } = await openOpportunity(
    commands,
    deal({
      name: 'Castellana \u2013 Learning Platform new licence',
      company_id: castellana,
      contact_id: lucia,
      lead_id: converted,
      amount: 90_000,
      owner: 'Diego Navarro',
      expected_close_date: '2026-12-15',
    }),
  );
  return { nordlicht, castellana, katrin, felix, lucia, fresh, converted, renewal, won, hotels };
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;
let h: ModuleHarness<Fixtures>;
beforeAll(async () => {
  h = await openModule(crmModule, { fixtures });
});
afterAll(() => h.close());

describeModuleBasics(crmModule, () => h);

describeReads(crmModule, () => h, [
  { path: 'contacts', total: 3, search: { q: 'CONTROLLER', field: 'full_name', value: 'Felix Koch' } },
  { path: 'companies', total: 2, search: { q: 'madrid', field: 'name', value: 'Castellana Hotels S.A.' } },
  { path: 'leads', total: 2, search: { q: 'polaris', field: 'lead_name', value: 'Sanne de Jong' } },
  {
    path: 'opportunities',
    total: 3,
    search: { q: 'service desk', field: 'name', value: 'Nordlicht \u2013 Service Desk pilot' },
  },
]);

describe('CRM filters', () => {
  const ids = (path: string, query: Record<string, string | number>) => listed(h.app, path, query);

  it('filters contacts by company and primary flag', async () => {
    const f = h.fixtures;
    expect(await ids('contacts', { company_id: f.nordlicht })).toEqual([f.katrin, f.felix]);
    expect(await ids('contacts', { is_primary: 'true' })).toEqual([f.katrin, f.lucia]);
    expect(await ids('contacts', { is_primary: 'false', company_id: f.nordlicht })).toEqual([f.felix]);
  });

  it('filters companies by status, industry, country and owner', async () => {
    const f = h.fixtures;
    expect(await ids('companies', { status: 'prospect' })).toEqual([f.castellana]);
    expect(await ids('companies', { industry: 'Logistics' })).toEqual([f.nordlicht]);
    expect(await ids('companies', { country: 'es' })).toEqual([f.castellana]);
    expect(await ids('companies', { owner: 'Hanna Vogel' })).toEqual([f.nordlicht]);
  });

  it('filters leads by status and source', async () => {
    expect(await ids('leads', { status: 'Converted' })).toEqual([h.fixtures.converted]);
    expect(await ids('leads', { status: 'new' })).toEqual([h.fixtures.fresh]);
    expect(await ids('leads', { source: 'trade show' })).toEqual([h.fixtures.fresh]);
  });

  it('filters opportunities by stage, company, contact, lead and close date', async () => {
    const f = h.fixtures;
    expect(await ids('opportunities', { stage: 'won' })).toEqual([f.won]);
    expect(await ids('opportunities', { company_id: f.nordlicht })).toEqual([f.renewal, f.won]);
    expect(await ids('opportunities', { contact_id: f.lucia })).toEqual([f.hotels]);
    expect(await ids('opportunities', { lead_id: f.converted })).toEqual([f.hotels]);
    expect(await ids('opportunities', { closing_before: '2026-12-31' })).toEqual([f.hotels]);
  });

  it('shows a converted lead with its conversion date and a won deal closed at 100%', async () => {
    const leadRecord = (await request(h.app).get(`/api/v1/leads/${h.fixtures.converted}`)).body;
    expect(leadRecord).toMatchObject({ status: 'Converted', converted_on: '2026-11-01' });
    const won = (await request(h.app).get(`/api/v1/opportunities/${h.fixtures.won}`)).body;
    expect(won).toMatchObject({ stage: 'Won', probability: 100, closed_on: '2026-11-01', lost_reason: null });
  });

  it('rejects bad filter values with a 422 naming the parameter', async () => {
    const get = (path: string, query: Record<string, string>) =>
      request(h.app).get(`/api/v1/${path}`).query(query);
    expectInvalid(await get('opportunities', { stage: 'Closed Won' }), ['query', 'stage']);
    expectInvalid(await get('contacts', { is_primary: 'maybe' }), ['query', 'is_primary']);
    expectInvalid(await get('companies', { country: 'Germany' }), ['query', 'country']);
    expectInvalid(await get('opportunities', { company_id: '1x' }), ['query', 'company_id']);
  });
});

describe('PATCH /api/v1/opportunities/{id}', () => {
  let w: ModuleHarness<Fixtures>;
  beforeEach(async () => {
    w = await openModule(crmModule, { fixtures });
  });
  afterEach(() => w.close());

  const patch = (id: number | string, body: object) =>
    request(w.app).patch(`/api/v1/opportunities/${id}`).set(auth).send(body);

  it('moves a deal to a stage, the probability following, and a GET shows it', async () => {
    const res = await patch(w.fixtures.renewal, { stage: 'negotiation' }).expect(200);
    expectRecord(crmModule, 'opportunities', res.body);
    expect(res.body).toMatchObject({ stage: 'Negotiation', probability: 70, closed_on: null });
    expect(res.body.updated_at).toBe('2026-11-21T09:30:00Z');
    expect((await request(w.app).get(`/api/v1/opportunities/${w.fixtures.renewal}`)).body).toEqual(res.body);
  });

  it.each(Object.entries(STAGE_PROBABILITY).filter(([stage]) => stage !== 'Lost'))(
    'sets probability for %s to %i',
    async (stage, probability) => {
      const res = await patch(w.fixtures.hotels, { stage });
      expect(res.status).toBe(200);
      expect(res.body.probability).toBe(probability);
    },
  );

  it('wins a deal: probability 100 and closed_on today', async () => {
    const res = await patch(w.fixtures.renewal, { stage: 'Won' }).expect(200);
    expect(res.body).toMatchObject({ stage: 'Won', probability: 100, closed_on: '2026-11-21' });
  });

  it('loses a deal with a reason, and with notes when the reason is Other', async () => {
    const lost = await patch(w.fixtures.renewal, { stage: 'Lost', lost_reason: 'competitor' }).expect(200);
    expect(lost.body).toMatchObject({
      stage: 'Lost',
      probability: 0,
      lost_reason: 'Competitor',
      closed_on: '2026-11-21',
    });
    const other = await patch(w.fixtures.hotels, {
      stage: 'Lost',
      lost_reason: 'Other',
      lost_notes: 'Budget moved to the group programme.',
    }).expect(200);
    expect(other.body).toMatchObject({
      lost_reason: 'Other',
      lost_notes: 'Budget moved to the group programme.',
    });
  });

  it('requires lost_reason to mark a deal Lost (422 naming it) and appends nothing', async () => {
    const head = await w.suite.eventStore.headPosition();
    const res = await patch(w.fixtures.renewal, { stage: 'Lost' });
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual(['lost_reason']);
    expect(await w.suite.eventStore.headPosition()).toBe(head);
  });

  it('refuses lost_reason with another stage and notes for Other without notes', async () => {
    expect(namedFields(await patch(w.fixtures.renewal, { stage: 'Demo', lost_reason: 'Price' }))).toEqual([
      'lost_reason',
    ]);
    expect(namedFields(await patch(w.fixtures.renewal, { stage: 'Lost', lost_reason: 'Other' }))).toEqual([
      'lost_notes',
    ]);
  });

  it('keeps a won deal closed: any move is 409 illegal_transition', async () => {
    const res = await patch(w.fixtures.won, { stage: 'Negotiation' });
    expectEnvelope(res, 409, 'illegal_transition');
    expect(res.body.error.details).toEqual({ from: 'Won', to: 'Negotiation' });
    expectEnvelope(
      await patch(w.fixtures.won, { stage: 'Lost', lost_reason: 'Price' }),
      409,
      'illegal_transition',
    );
  });

  it.each([
    [{}, 'stage'],
    [{ stage: 'Closed Won' }, 'stage'],
    [{ stage: 'Lost', lost_reason: 'Bad luck' }, 'lost_reason'],
    [{ stage: 42 }, 'stage'],
  ])('rejects %j with 422 naming %s', async (body, field) => {
    const res = await patch(w.fixtures.renewal, body);
    expectEnvelope(res, 422, 'validation_error');
    expect(namedFields(res)).toEqual([field]);
  });

  it('answers an unknown deal with 404 and a non-integer id with 422', async () => {
    expectEnvelope(await patch(999, { stage: 'Demo' }), 404, 'not_found');
    expectEnvelope(await patch('x1', { stage: 'Demo' }), 422, 'validation_error');
  });

  describeWriteGuards(() => w, {
    method: 'patch',
    path: () => `/api/v1/opportunities/${w.fixtures.renewal}`,
    body: () => ({ stage: 'Demo' }),
    openWithoutToken: () => openModule(crmModule, { token: null, fixtures }),
  });
});

describe('CRM demo data', () => {
  let demo: ModuleHarness<undefined>;
  beforeAll(async () => {
    demo = await openModule(crmModule, { demo: true });
  }, 60_000);
  afterAll(() => demo.close());

  const all = (path: string) => allDocuments(demo, `crm.${path}`);

  it('holds hundreds of records per resource, leads and deals in every state', async () => {
    for (const path of ['contacts', 'companies', 'leads', 'opportunities'])
      expect((await all(path)).length).toBeGreaterThanOrEqual(200);
    expect(new Set((await all('leads')).map((record) => record.status)).size).toBe(7);
    expect(new Set((await all('opportunities')).map((record) => record.stage)).size).toBe(7);
  });

  it('has foreign keys that all resolve, contacts working for the deal company', async () => {
    const companies = new Set((await all('companies')).map((record) => record.id));
    const contacts = new Map((await all('contacts')).map((record) => [record.id, record]));
    const leads = new Map((await all('leads')).map((record) => [record.id, record]));
    for (const record of contacts.values()) expect(companies.has(record.company_id as number)).toBe(true);
    for (const record of await all('opportunities')) {
      expect(companies.has(record.company_id as number)).toBe(true);
      expect(contacts.get(record.contact_id as number)?.company_id).toBe(record.company_id);
      if (record.lead_id !== null) expect(leads.get(record.lead_id as number)?.status).toBe('Converted');
      expect(record.probability).toBe(STAGE_PROBABILITY[record.stage as keyof typeof STAGE_PROBABILITY]);
      expect(record.lost_reason !== null).toBe(record.stage === 'Lost');
    }
  });
});
