import request from 'supertest';
import { marketModule } from '../../src/api/market';
import { threadIdOf } from '../../src/api/market/assistant';
import { cookieFor, marketApp, streamEvents, writeMarketFixtures } from '../support/market-fixtures';
import { openModule, type ModuleHarness } from '../support/module-harness';
import { expectEnvelope } from './spec';

let harness: ModuleHarness<void>;
beforeAll(async () => {
  harness = await openModule(marketModule, { fixtures: writeMarketFixtures });
});
afterAll(() => harness.close());
afterEach(() => jest.restoreAllMocks());

const ask = (user: string, body: object) =>
  streamEvents(marketApp(harness), body, { Cookie: cookieFor(user) });
const names = (events: { event: string }[]) => [...new Set(events.map((event) => event.event))];
const text = (events: { event: string; data: { text?: string } }[]) =>
  events
    .filter((event) => event.event === 'token')
    .map((event) => event.data.text)
    .join('');

describe('POST /api/assistant/stream', () => {
  it('streams progress, plan, visual, tokens, citations and done last', async () => {
    const res = await ask('ann', {
      question: 'Median price of dental implants by competitor?',
      country: 'DE',
      workspace: 'pricing',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(names(res.events)).toEqual(['progress', 'plan', 'visual', 'token', 'citations', 'done']);
    expect(res.events[res.events.length - 1]?.event).toBe('done');
    const plan = res.events.find((event) => event.event === 'plan')?.data;
    expect(plan).toEqual({
      status: 'planned',
      metric: 'median_price',
      dimension: 'competitor',
      filters: { country: 'DE', treatment: 'dental-implant', treatment_type: null },
      scope: 'market',
      bounds: { row_limit: 20000, top: 25, time_limit_ms: 5000 },
    });
    const visual = res.events.find((event) => event.event === 'visual')?.data;
    expect(visual.format).toBe('vega-lite');
    expect(visual.spec.data.values).toEqual([
      { label: 'Beta Smile', value: 1600, currency: 'EUR', observation_count: 3 },
      { label: 'Alpha Dental', value: 1100, currency: 'EUR', observation_count: 2 },
    ]);
    expect(text(res.events)).toContain('1. Beta Smile: 1,600.00 EUR (3 observations)');
    const citations = res.events.find((event) => event.event === 'citations')?.data.citations;
    expect(citations.map((citation: { url: string }) => citation.url)).toEqual([
      'https://www.beta-smile.example/de/prices/dental-implant',
      'https://www.alpha-dental.example/de/prices/dental-implant',
    ]);
    expect(res.events[res.events.length - 1]?.data).toMatchObject({
      status: 'answered',
      thread_id: threadIdOf('ann', 'pricing'),
    });
  });

  it('answers the price index by competitor with the documented formula', async () => {
    const res = await ask('ann', {
      question: 'Which clinics are most expensive?',
      country: 'DE',
      workspace: 'competitors',
    });
    const visual = res.events.find((event) => event.event === 'visual')?.data;
    expect(
      visual.spec.data.values.map((row: { label: string; value: number }) => [row.label, row.value]),
    ).toEqual([
      ['Beta Smile', 106.7],
      ['Alpha Dental', 73.3],
    ]);
  });

  it('compares markets for coverage and counts', async () => {
    const coverage = await ask('ann', {
      question: 'Which markets are complete?',
      country: 'AT',
      workspace: 'coverage',
    });
    expect(coverage.events.find((event) => event.event === 'visual')?.data.spec.data.values).toHaveLength(30);
    expect(text(coverage.events)).toMatch(/Collection status of the 30 EEA markets/);
    const counts = await ask('ann', {
      question: 'How many observations per country for implants?',
      country: 'DE',
      workspace: 'pricing',
    });
    expect(counts.events.find((event) => event.event === 'visual')?.data.spec.data.values).toEqual([
      { label: 'Germany (DE)', value: 5, currency: null, observation_count: 5 },
      { label: 'Austria (AT)', value: 1, currency: null, observation_count: 1 },
    ]);
  });

  it.each([
    ['What is the weather in Paris?', /outside what I can analyse|no weather figures/],
    ['What is the revenue of Beta Smile?', /no revenue figures/],
    ['select * from observations; drop table', /never take query text/],
    ['Tell me a joke', /outside what I can analyse/],
  ])('keeps to the allowlist: %j gets a clear answer saying what can be asked', async (question, reason) => {
    const res = await ask('ben', { question, country: 'DE', workspace: 'pricing' });
    expect(names(res.events)).toEqual(['progress', 'plan', 'token', 'citations', 'done']);
    expect(res.events.find((event) => event.event === 'plan')?.data).toEqual({
      status: 'refused',
      allowed: {
        metrics: ['median_price', 'price_index', 'observation_count', 'competitor_count', 'coverage'],
        dimensions: ['country', 'treatment_type', 'treatment', 'competitor', 'city'],
      },
    });
    expect(text(res.events)).toMatch(reason);
    expect(text(res.events)).toMatch(/I can answer with these metrics/);
    expect(res.events[res.events.length - 1]?.data.status).toBe('refused');
  });

  it('asks for a treatment where a median across treatments would mean nothing', async () => {
    const res = await ask('bea', { question: 'Median price by city', country: 'DE', workspace: 'pricing' });
    expect(text(res.events)).toMatch(/Name one treatment/);
  });

  it('sends an error event and still ends with done when the analysis fails', async () => {
    const { readStore } = harness.suite;
    const find = readStore.find.bind(readStore);
    jest.spyOn(readStore, 'find').mockImplementation(async (collection, query) => {
      if (collection === 'market.observations') throw new Error('disk on fire');
      return find(collection, query);
    });
    const res = await ask('cat', {
      question: 'Median price by treatment',
      country: 'DE',
      workspace: 'pricing',
    });
    expect(res.events.map((event) => event.event).slice(-2)).toEqual(['error', 'done']);
    expect(res.events[res.events.length - 2]?.data).toEqual({
      code: 'internal_error',
      message: 'The analysis failed; nothing was computed',
    });
    expect(JSON.stringify(res.events)).not.toMatch(/disk on fire|market\.observations|sqlite/i);
    expect(res.events[res.events.length - 1]?.data.status).toBe('failed');
  });

  it.each([
    [{ question: '', country: 'DE', workspace: 'pricing' }, 'question'],
    [{ question: 'x'.repeat(501), country: 'DE', workspace: 'pricing' }, 'question'],
    [{ question: 'Median price', country: 'XX', workspace: 'pricing' }, 'country'],
    [{ question: 'Median price', country: 'DE', workspace: 'sales' }, 'workspace'],
    [{ question: 'Median price', country: 'DE', workspace: 'pricing', sql: 'x' }, 'sql'],
    [{ question: 'Median price', workspace: 'pricing' }, 'country'],
  ])('rejects the body %j with 422 naming %s', async (body, field) => {
    const res = await ask('dan', body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.issues.map((issue: { loc: string[] }) => issue.loc[1])).toEqual([field]);
  });

  it('limits each user to a burst of 5 questions: the 6th is 429 with Retry-After, other users go on', async () => {
    const body = { question: 'Observation count by treatment', country: 'DE', workspace: 'pricing' };
    for (let index = 0; index < 5; index++) expect((await ask('eve', body)).status).toBe(200);
    const limited = await ask('eve', body);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await ask('fay', body)).status).toBe(200);
  });

  it('stops the work when the client disconnects', async () => {
    const app = marketApp(harness);
    const server = app as Parameters<typeof request>[0];
    const { readStore } = harness.suite;
    const find = readStore.find.bind(readStore);
    let reads = 0;
    jest.spyOn(readStore, 'find').mockImplementation(async (collection, query) => {
      if (collection === 'market.observations') {
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return find(collection, query);
    });
    const pending = request(server)
      .post('/api/assistant/stream')
      .set('Cookie', cookieFor('gil'))
      .send({ question: 'Observation count by treatment', country: 'DE', workspace: 'pricing' })
      .timeout(100)
      .catch((error: Error) => error);
    expect(await pending).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 700));
    await harness.settle();
    expect(reads).toBe(1);
    const threads = await request(app).get('/api/threads').set('Cookie', cookieFor('gil')).expect(200);
    expect(threads.body.data[0].messages[0]).toMatchObject({ status: 'cancelled' });
  });
});

describe('GET /api/threads', () => {
  it('keeps every question and answer in the asking user`s thread, and shows no one else`s', async () => {
    await ask('hal', { question: 'Median price by treatment', country: 'DE', workspace: 'pricing' });
    await ask('hal', { question: 'Tell me a joke', country: 'AT', workspace: 'pricing' });
    await ask('ida', { question: 'Which markets are complete?', country: 'DE', workspace: 'coverage' });
    const hal = await request(marketApp(harness))
      .get('/api/threads')
      .set('Cookie', cookieFor('hal'))
      .expect(200);
    expect(hal.body.meta).toEqual({ total: 1, limit: 50, offset: 0, next: null });
    const [thread] = hal.body.data;
    expect(thread).toMatchObject({ id: threadIdOf('hal', 'pricing'), user_id: 'hal', workspace: 'pricing' });
    expect(
      thread.messages.map((message: { question: string; status: string; country: string }) => [
        message.question,
        message.status,
        message.country,
      ]),
    ).toEqual([
      ['Median price by treatment', 'answered', 'DE'],
      ['Tell me a joke', 'refused', 'AT'],
    ]);
    expect(thread.messages[0].answer).toMatch(/Median price of all treatments in Germany by treatment/);
    expect(thread.messages[0].plan).toMatchObject({ metric: 'median_price', dimension: 'treatment' });
    const ida = await request(marketApp(harness))
      .get('/api/threads')
      .set('Cookie', cookieFor('ida'))
      .expect(200);
    expect(
      ida.body.data.map((t: { user_id: string; workspace: string }) => [t.user_id, t.workspace]),
    ).toEqual([['ida', 'coverage']]);
    const nobody = await request(marketApp(harness))
      .get('/api/threads')
      .set('Cookie', cookieFor('joe'))
      .expect(200);
    expect(nobody.body).toEqual({ data: [], meta: { total: 0, limit: 50, offset: 0, next: null } });
  });

  it('records the exchange as events attributed to the user', async () => {
    await ask('kim', { question: 'Median price by treatment', country: 'DE', workspace: 'pricing' });
    const events = await harness.suite.eventStore.readStream(`market.thread-${threadIdOf('kim', 'pricing')}`);
    expect(events.map((event) => event.type)).toEqual(['ThreadStarted', 'QuestionAsked', 'AnswerGiven']);
    expect(
      events.every((event) => event.metadata.actor === 'user:kim' && event.metadata.organisation === 'kim'),
    ).toBe(true);
  });

  it('rejects bad paging with 422', async () => {
    expectEnvelope(
      await request(marketApp(harness)).get('/api/threads?limit=0').set('Cookie', cookieFor('kim')),
      422,
      'validation_error',
    );
  });
});
