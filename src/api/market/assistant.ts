import { createHash, randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { z } from 'zod';
import { isoTimestamp } from '../../clock';
import { recordExchange } from '../../commands/market/handlers';
import { WORKSPACES, type Workspace } from '../../events/market';
import { answerText, tokens, visualOf } from '../../market/assistant/answer';
import { QueryTimeout, runPlan, type Citation } from '../../market/assistant/execute';
import { DIMENSIONS, METRICS, planQuestion, type AnalysisPlan } from '../../market/assistant/plan';
import type { MarketCode } from '../../market/markets';
import { MARKET_COLLECTIONS, ThreadRecord, type ThreadRecord as Thread } from '../../projections/market';
import { createRateLimiter, enforceRateLimit } from '../kit/rate-limit';
import type { ModuleRoute, RouteInput } from '../kit/module';
import type { ModuleServices } from '../../modules/module';
import { openSse, type SseStream } from '../kit/sse';
import { countryParameter, listBody, listSchema, ordering, paging, storedPage } from './parameters';

export const QUESTION_MAX_LENGTH = 500;
/** The whole stream, planning to `done`, ends within this time. */
export const STREAM_LIMIT_MS = 15_000;
/** Per user: a burst of 5 questions, then one every 10 seconds. */
export const ASSISTANT_RATE = { capacity: 5, refillPerSecond: 0.1 };
const limiter = createRateLimiter(ASSISTANT_RATE);

const AssistantRequest = z
  .strictObject({
    question: z.string().trim().min(1).max(QUESTION_MAX_LENGTH),
    country: countryParameter(),
    workspace: z.enum(WORKSPACES).meta({
      description:
        '`pricing`: prices by treatment by default; `competitors`: by competitor; `coverage`: collection status and depth',
    }),
  })
  .meta({ id: 'AssistantRequest' });
type AssistantRequest = z.infer<typeof AssistantRequest>;

/** One thread per user and workspace: its id is derived from both, so it needs no lookup. */
export const threadIdOf = (userId: string, workspace: Workspace) =>
  createHash('sha256').update(`${userId}\u0000${workspace}`).digest('hex').slice(0, 24);

interface Outcome {
  status: 'answered' | 'refused' | 'failed' | 'cancelled';
  answer: string;
  plan: AnalysisPlan | null;
  citations: Citation[];
}

async function sendTokens(stream: SseStream, text: string): Promise<void> {
  for (const piece of tokens(text)) {
    stream.signal.throwIfAborted();
    stream.send('token', { text: piece });
    await yieldToLoop();
  }
}

/** Plans, runs and streams one answer; returns what to record in the thread. */
async function answer(stream: SseStream, body: AssistantRequest, services: ModuleServices): Promise<Outcome> {
  stream.send('progress', { stage: 'planning', message: 'Reading the question' });
  const planned = planQuestion(body.question, body.workspace, body.country as MarketCode);
  if (!planned.ok) {
    stream.send('plan', { status: 'refused', allowed: { metrics: METRICS, dimensions: DIMENSIONS } });
    await sendTokens(stream, planned.reason);
    stream.send('citations', { citations: [] });
    return { status: 'refused', answer: planned.reason, plan: null, citations: [] };
  }
  const { plan } = planned;
  stream.send('plan', { status: 'planned', ...plan });
  stream.send('progress', { stage: 'querying', message: 'Computing over the read models' });
  const result = await runPlan(plan, services.readStore, stream.signal);
  stream.send('progress', { stage: 'answering', message: `${result.rows.length} rows` });
  stream.send('visual', { format: 'vega-lite', spec: visualOf(plan, result) });
  const text = answerText(plan, result);
  await sendTokens(stream, text);
  stream.send('citations', { citations: result.citations });
  return { status: 'answered', answer: text, plan, citations: result.citations };
}

function failure(error: unknown): { code: string; message: string } {
  if (error instanceof QueryTimeout) return { code: 'timeout', message: error.message };
  return { code: 'internal_error', message: 'The analysis failed; nothing was computed' };
}

const assistant: ModuleRoute<unknown, AssistantRequest> = {
  method: 'post',
  proposable: false,
  path: '/api/assistant/stream',
  operation: 'askAssistant',
  summary: 'Ask the analysis assistant; answers as a server-sent event stream',
  tags: ['assistant'],
  body: AssistantRequest,
  responses: {
    200: {
      description:
        'Events `progress`, `plan`, `visual` (Vega-Lite), `token` (answer pieces), `citations`, then `done` ' +
        '(always last; after an `error` event too). Each `data` is JSON.',
      mediaType: 'text/event-stream',
    },
    422: { description: 'Invalid body: question of 1 to 500 characters, a market code, a workspace' },
    429: { description: 'Too many questions; see Retry-After' },
  },
  async handle(input: RouteInput<unknown, AssistantRequest>, services) {
    const { body, caller } = input;
    const userId = caller.scope as string;
    enforceRateLimit(limiter, userId);
    if (!input.res) throw new Error('The assistant answers as a stream: it needs the exchange');
    const stream = openSse(input.res, { 'X-Request-Id': input.requestId });
    const timedOut = new AbortController();
    const timer = setTimeout(() => timedOut.abort(), STREAM_LIMIT_MS);
    const signal = AbortSignal.any([stream.signal, timedOut.signal]);
    const bounded: SseStream = { ...stream, signal };
    const messageId = randomUUID();
    const askedAt = isoTimestamp(services.clock.now());
    let outcome: Outcome;
    try {
      outcome = await answer(bounded, body, services);
    } catch (error) {
      if (stream.signal.aborted) outcome = { status: 'cancelled', answer: '', plan: null, citations: [] };
      else {
        const reported = timedOut.signal.aborted
          ? { code: 'timeout', message: 'The answer took longer than its time limit' }
          : failure(error);
        if (reported.code === 'internal_error')
          services.logger.error({ err: error, req: { id: input.requestId } }, 'assistant failed');
        stream.send('error', reported);
        outcome = { status: 'failed', answer: reported.message, plan: null, citations: [] };
      }
    } finally {
      clearTimeout(timer);
    }
    const threadId = threadIdOf(userId, body.workspace);
    try {
      const { outcome: recorded } = await recordExchange(input.commands, {
        thread: { id: threadId, user_id: userId, workspace: body.workspace, started_at: askedAt },
        question: {
          message_id: messageId,
          question: body.question,
          country: body.country as MarketCode,
          asked_at: askedAt,
        },
        answer: {
          message_id: messageId,
          status: outcome.status,
          answer: outcome.answer,
          plan: outcome.plan as Record<string, unknown> | null,
          citations: outcome.citations,
          answered_at: isoTimestamp(services.clock.now()),
        },
      });
      const last = recorded.events[recorded.events.length - 1];
      if (last) await services.runtime.waitFor(last.position);
    } catch (error) {
      services.logger.error({ err: error, req: { id: input.requestId } }, 'assistant thread not recorded');
      stream.send('error', { code: 'internal_error', message: 'The exchange could not be recorded' });
    }
    stream.send('done', { status: outcome.status, thread_id: threadId, message_id: messageId });
    stream.end();
    return 'streamed';
  },
};

const ThreadQuery = z.strictObject({ ...paging(), ...ordering(MARKET_COLLECTIONS.threads) });

const threads: ModuleRoute<z.infer<typeof ThreadQuery>> = {
  method: 'get',
  path: '/api/threads',
  operation: 'listThreads',
  summary: "The signed-in user's assistant threads, with their questions and answers",
  tags: ['threads'],
  query: ThreadQuery,
  responses: {
    200: { description: "A page of the caller's threads", schema: listSchema(ThreadRecord, 'ThreadList') },
  },
  async handle({ query, caller }, { readStore }) {
    const page = storedPage(MARKET_COLLECTIONS.threads, query);
    const found = await readStore.find(MARKET_COLLECTIONS.threads, {
      filters: [{ field: 'user_id', op: 'eq', value: caller.scope ?? null }],
      ...page,
    });
    return {
      status: 200,
      body: listBody(
        found.items.map((item) => JSON.parse(item) as Thread),
        found.total,
        page,
        found.next,
      ),
    };
  },
};

export const assistantRoutes = [assistant, threads] as ModuleRoute[];
