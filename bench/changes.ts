import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MODULE_IDS } from '../src/modules/ids';
import { MODULES } from '../src/api/modules';
import {
  CLI,
  PORTS,
  flags,
  machine,
  numberFlag,
  round,
  startSuiteProcess,
  stop,
  suiteEnv,
  table,
} from './support';
import { writeSection } from './support';

/**
 * What keeping a copy of three modules in step costs an integrator (issue 54), on the demo data:
 * requests and bytes of a first sync and of a sync with nothing new, by the change feed and by re-reading
 * every list, with and without gzip; and the time from a write's answer to the change reaching a reader
 * that long-polls (`wait`). Usage: tsx bench/changes.ts [--writes 50]
 */
const options = flags();
const WRITES = numberFlag(options, 'writes', 50);
const FOLLOWED = ['esm', 'hrm', 'crm'] as const;
const TOKEN = 'bench-changes-token-0123456789';

const portOf = (module: string) => PORTS.suite + MODULE_IDS.indexOf(module as (typeof MODULE_IDS)[number]);

interface Fetched {
  status: number;
  body: string;
  /** Bytes on the wire: the body as sent (compressed, when it was), without headers. */
  wireBytes: number;
}

/** A GET whose body is counted as it arrived, decompressed by hand when it came compressed. */
function get(module: string, pathAndQuery: string, encoding?: 'gzip'): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = encoding ? { 'Accept-Encoding': encoding } : {};
    http
      .get({ host: '127.0.0.1', port: portOf(module), path: pathAndQuery, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, body: body.toString('utf8'), wireBytes: raw.length });
        });
      })
      .on('error', reject);
  });
}

interface Cost {
  requests: number;
  bytes: number;
}

/** Follows a module's feed from `after` until it has nothing more: requests, bytes, and the cursor reached. */
async function follow(module: string, after: string | undefined, encoding?: 'gzip') {
  const cost: Cost = { requests: 0, bytes: 0 };
  for (let cursor = after; ;) {
    const query = `/api/v1/changes?limit=1000${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await get(module, query, encoding);
    if (answer.status !== 200) throw new Error(`${module} ${query}: ${answer.status} ${answer.body}`);
    cost.requests++;
    cost.bytes += answer.wireBytes;
    const page = JSON.parse(answer.body) as { meta: { next: string; has_more: boolean } };
    cursor = page.meta.next;
    if (!page.meta.has_more) return { cost, cursor };
  }
}

/** Re-reads every list of a module, page by page, as the integrator had to. */
async function rereadLists(module: string, encoding?: 'gzip'): Promise<Cost> {
  const definition = MODULES.find((candidate) => candidate.id === module);
  if (!definition) throw new Error(`no module ${module}`);
  const cost: Cost = { requests: 0, bytes: 0 };
  for (const resource of definition.resources) {
    const limit = definition.list.maxLimit;
    for (let offset = 0; ; offset += limit) {
      const answer = await get(module, `/api/v1/${resource.path}?limit=${limit}&offset=${offset}`, encoding);
      cost.requests++;
      cost.bytes += answer.wireBytes;
      if ((JSON.parse(answer.body) as { data: unknown[] }).data.length < limit) break;
    }
  }
  return cost;
}

const sum = (costs: readonly Cost[]): Cost => ({
  requests: costs.reduce((total, cost) => total + cost.requests, 0),
  bytes: costs.reduce((total, cost) => total + cost.bytes, 0),
});

const kib = (bytes: number) => `${round(bytes / 1024, 1)} KiB`;

/** Milliseconds from sending a write to its change reaching a reader that long-polls at the head. */
async function feedLatencies(writes: number): Promise<number[]> {
  const latencies: number[] = [];
  let { cursor } = await follow('esm', 'now');
  for (let write = 0; write < writes; write++) {
    const waiting = get('esm', `/api/v1/changes?wait=30&after=${encodeURIComponent(cursor)}`).then(
      (answer) => ({ answer, at: performance.now() }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const sent = performance.now();
    const written = await fetch(`http://127.0.0.1:${portOf('esm')}/api/v1/requests`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: `Bench laptop ${write}`, status: 'Open', priority: 'Low' }),
    });
    if (written.status !== 201) throw new Error(`write: ${written.status}`);
    const { answer, at } = await waiting;
    const page = JSON.parse(answer.body) as { data: unknown[]; meta: { next: string } };
    if (page.data.length === 0) throw new Error('the long poll answered without the change');
    latencies.push(at - sent);
    cursor = page.meta.next;
  }
  return latencies.sort((a, b) => a - b);
}

/** Milliseconds from sending a write to its webhook delivery reaching a receiver on this machine. */
async function webhookLatencies(writes: number): Promise<number[]> {
  const arrivals: ((at: number) => void)[] = [];
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      arrivals.shift()?.(performance.now());
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  const registered = await fetch(`http://127.0.0.1:${portOf('esm')}/api/v1/webhooks`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks`, resource: 'requests' }),
  });
  if (registered.status !== 201) throw new Error(`webhook: ${registered.status}`);
  const latencies: number[] = [];
  try {
    for (let write = 0; write < writes; write++) {
      const arrived = new Promise<number>((resolve) => arrivals.push(resolve));
      const sent = performance.now();
      const written = await fetch(`http://127.0.0.1:${portOf('esm')}/api/v1/requests`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: `Hooked laptop ${write}`, status: 'Open', priority: 'Low' }),
      });
      if (written.status !== 201) throw new Error(`write: ${written.status}`);
      latencies.push((await arrived) - sent);
    }
  } finally {
    receiver.close();
  }
  return latencies.sort((a, b) => a - b);
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-changes-'));
  try {
    execFileSync(process.execPath, [CLI, 'seed'], { env: suiteEnv(dataDir), stdio: 'inherit' });
    const { child } = await startSuiteProcess(
      dataDir,
      { SUITE_LOG_LEVEL: 'info', SUITE_API_TOKEN: TOKEN, SUITE_WEBHOOK_ALLOW_PRIVATE: 'true' },
      { logs: 'discard' },
    );
    try {
      const first = await Promise.all(FOLLOWED.map((module) => follow(module, undefined)));
      const firstGzip = await Promise.all(FOLLOWED.map((module) => follow(module, undefined, 'gzip')));
      const idle = await Promise.all(FOLLOWED.map((module, index) => follow(module, first[index]?.cursor)));
      const idleGzip = await Promise.all(
        FOLLOWED.map((module, index) => follow(module, first[index]?.cursor, 'gzip')),
      );
      const lists = await Promise.all(FOLLOWED.map((module) => rereadLists(module)));
      const listsGzip = await Promise.all(FOLLOWED.map((module) => rereadLists(module, 'gzip')));
      const latencies = await feedLatencies(WRITES);
      const hooked = await webhookLatencies(WRITES);

      const row = (what: string, plain: Cost, gzip: Cost) => [
        what,
        String(plain.requests),
        kib(plain.bytes),
        kib(gzip.bytes),
      ];
      const body = `## Change feeds: what a sync costs

The service desk, HR and the CRM on the demo data (\`suite seed\`), followed by \`GET /api/v1/changes\`
(\`limit=1000\`) or by re-reading every list (the largest page each allows), as shipped (request logs
on). Bytes are the bodies as sent, without headers, plain and with \`Accept-Encoding: gzip\`.
Machine: ${machine()}.

${table(
  ['sync of esm, hrm and crm', 'requests', 'bytes', 'bytes (gzip)'],
  [
    row('first sync by the change feeds', sum(first.map((f) => f.cost)), sum(firstGzip.map((f) => f.cost))),
    row('nothing new, by the change feeds', sum(idle.map((f) => f.cost)), sum(idleGzip.map((f) => f.cost))),
    row('re-reading every list (any sync)', sum(lists), sum(listsGzip)),
  ],
)}

From sending a write (\`POST /api/v1/requests\`) to its change reaching a reader long-polling the
service desk's feed at the head (\`wait=30\`), over ${WRITES} writes one after another: median
${round(percentile(latencies, 50), 1)} ms, p95 ${round(percentile(latencies, 95), 1)} ms, max
${round(latencies.at(-1) as number, 1)} ms. To a webhook receiver on this machine (signed, one delivery
recorded in the log per change): median ${round(percentile(hooked, 50), 1)} ms, p95
${round(percentile(hooked, 95), 1)} ms, max ${round(hooked.at(-1) as number, 1)} ms.
`;
      console.log(body);
      writeSection('changes', body);
    } finally {
      await stop(child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
