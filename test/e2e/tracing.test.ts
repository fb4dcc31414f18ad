import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import request from 'supertest';
import type { StoredEvent } from '../../src/events/envelope';
import { openEsm, TOKEN } from '../support/esm-harness';
import { tempDir } from '../support/temp-dir';
import { FOLLOW_UP_JOB } from '../support/traced-suite';

jest.setTimeout(60_000);

const ESM_PORT = 31470;
const AUDIT_PORT = 31471;
const METRICS_PORT = 31472;
const RECEIVER_PORT = 31473;
const AUDIT_TOKEN = 'tracing-audit-token-0123';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
}

/** An OTLP/HTTP receiver on loopback (JSON encoding): every span exported to it. */
function otlpReceiver(): { spans: OtlpSpan[]; server: Server } {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans) {
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { spans, server };
}

const attribute = (span: OtlpSpan | undefined, key: string) => {
  const value = span?.attributes?.find((candidate) => candidate.key === key)?.value;
  return value && Object.values(value)[0];
};

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

/** Spans of the trace, once `done` says the receiver has them all. */
async function spansOf(receiver: { spans: OtlpSpan[] }, done: (spans: OtlpSpan[]) => boolean) {
  for (let attempt = 0; attempt < 400; attempt++) {
    const trace = receiver.spans.filter((span) => span.traceId === CLIENT_TRACE);
    if (done(trace)) return trace;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The trace is incomplete: ${receiver.spans.map((span) => span.name).join(', ')}`);
}

describe('traces from the request through the command, the append and the projection to the job', () => {
  const { dir, cleanup } = tempDir();
  const receiver = otlpReceiver();
  let suite: ChildProcess;
  const base = `http://127.0.0.1:${ESM_PORT}`;

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.server.listen(RECEIVER_PORT, '127.0.0.1', resolve));
    suite = fork(path.join(__dirname, '../support/traced-suite.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        SUITE_DATA_DIR: dir,
        SUITE_SEED: 'none',
        SUITE_API_TOKEN: TOKEN,
        SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
        SUITE_ESM_PORT: String(ESM_PORT),
        SUITE_AUDIT_PORT: String(AUDIT_PORT),
        SUITE_METRICS_PORT: String(METRICS_PORT),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${RECEIVER_PORT}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '20',
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const [message] = (await Promise.race([once(suite, 'message'), once(suite, 'exit')])) as unknown[];
    if (message !== 'serving') throw new Error(`The traced suite exited with ${String(message)}`);
  });
  afterAll(async () => {
    if (suite?.exitCode === null) {
      suite.kill('SIGTERM');
      await once(suite, 'exit');
    }
    receiver.server.close();
    cleanup();
  });

  it('one POST is one trace, continuing the caller’s traceparent, that its job joins', async () => {
    const created = await fetch(`${base}/api/v1/requests`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`,
      },
      body: JSON.stringify({ title: 'Laptop for Ana', status: 'Open', priority: 'High' }),
    });
    expect(created.status).toBe(201);
    const jobName = `job ${FOLLOW_UP_JOB}`;
    const trace = await spansOf(receiver, (spans) =>
      ['projection.batch', jobName].every((name) => spans.some((span) => span.name === name)),
    );
    const named = (name: string) => trace.filter((span) => span.name === name);
    const [request] = named('POST /api/v1/requests');
    expect(request?.parentSpanId).toBe(CLIENT_SPAN);
    expect(attribute(request, 'http.route')).toBe('/api/v1/requests');
    expect(Number(attribute(request, 'http.response.status_code'))).toBe(201);
    const childrenOf = (span: OtlpSpan | undefined) =>
      trace.filter((child) => child.parentSpanId === span?.spanId).map((child) => child.name);
    expect(childrenOf(request)).toEqual(
      expect.arrayContaining(['command.decide', 'event_store.append', 'projection.wait']),
    );

    // The append's trace context is stored with the event; the projection and the job continue it.
    const [append] = named('event_store.append');
    const logged = await fetch(`http://127.0.0.1:${AUDIT_PORT}/api/v1/events?type=RequestSubmitted`, {
      headers: { authorization: `Bearer ${AUDIT_TOKEN}` },
    });
    const [submitted] = ((await logged.json()) as { data: StoredEvent[] }).data;
    expect(submitted?.metadata.traceparent).toBe(`00-${CLIENT_TRACE}-${append?.spanId}-01`);
    expect(Number(attribute(append, 'suite.position'))).toBe(submitted?.position);
    expect(childrenOf(append)).toEqual(expect.arrayContaining(['projection.batch', jobName]));
    const [job] = named(jobName);
    expect(childrenOf(job)).toContain('projection.wait');
    // Nothing else was traced: work without a trace to continue makes no spans of its own.
    expect(receiver.spans.filter((span) => span.traceId !== CLIENT_TRACE)).toEqual([]);
  });

  it('answers the probes on every port, the module’s, the audit API’s and the metrics port', async () => {
    for (const port of [ESM_PORT, AUDIT_PORT, METRICS_PORT]) {
      const live = await fetch(`http://127.0.0.1:${port}/livez`);
      expect([live.status, await live.json()]).toEqual([200, { status: 'alive' }]);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      const report = (await ready.json()) as { status: string; checks: Record<string, { status: string }> };
      expect([ready.status, report.status]).toEqual([200, 'ready']);
      expect(Object.keys(report.checks)).toEqual(['event_store', 'read_store', 'read_models']);
    }
    // Requests are counted by route template, never by path; the probes are not counted.
    const metrics = await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
    expect(metrics).toContain(
      'suite_http_request_duration_seconds_count{module="esm",route="/api/v1/requests",method="POST",status="201"} 1',
    );
    expect(metrics).not.toMatch(/route="\/(livez|readyz)"/);
  });
});

describe('without tracing', () => {
  it('stores no trace context with the events, whatever the caller sends', async () => {
    const h = await openEsm();
    try {
      const created = await request(h.app)
        .post('/api/v1/requests')
        .set('authorization', `Bearer ${TOKEN}`)
        .set('traceparent', `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01`)
        .send({ title: 'Monitor for Ana', status: 'Open', priority: 'Low' })
        .expect(201);
      const event = await h.suite.storedEvents.eventAt(Number(created.headers['x-event-position']));
      expect(event?.metadata).not.toHaveProperty('traceparent');
    } finally {
      await h.close();
    }
  });
});
