import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SUITE_URL, flags, load, machine, medianFigures, numberFlag, ratio, round, table } from './support';
import {
  recordAnswer,
  startCeiling,
  startSuiteProcess,
  stop,
  writeSection,
  type LoadFigures,
} from './support';

/**
 * GET /api/v1/requests?limit=50 against a bare node:http server replaying the same answer (the ceiling),
 * then sustained POST /api/v1/requests, on the demo data. Usage: tsx bench/http.ts [--seconds 8] [--runs 3]
 */
const options = flags();
const SECONDS = numberFlag(options, 'seconds', 8);
const RUNS = numberFlag(options, 'runs', 3);
const POST_CONNECTIONS = [16, 32, 64];
const TOKEN = 'bench-token-0123456789';
const LIST_PATH = '/api/v1/requests?limit=50';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'suite-bench-'));
  const { child } = await startSuiteProcess(dataDir, {
    SUITE_SEED: 'demo',
    SUITE_API_TOKEN: TOKEN,
    // The write rate limit would answer 429 to a load generator.
    SUITE_WRITE_RATE_LIMIT: '0',
  });
  try {
    const list = await recordAnswer(`${SUITE_URL}${LIST_PATH}`);
    const ceiling = await startCeiling(list);
    const suiteRuns: LoadFigures[] = [];
    const ceilingRuns: LoadFigures[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        suiteRuns.push(await load({ url: `${SUITE_URL}${LIST_PATH}`, duration: SECONDS }));
        ceilingRuns.push(await load({ url: `${ceiling.url}${LIST_PATH}`, duration: SECONDS }));
      }
    } finally {
      await ceiling.stop();
    }

    const posts = new Map<number, LoadFigures>();
    for (const connections of POST_CONNECTIONS) {
      const runs: LoadFigures[] = [];
      for (let run = 0; run < RUNS; run++) {
        runs.push(
          await load({
            url: `${SUITE_URL}/api/v1/requests`,
            method: 'POST',
            duration: SECONDS,
            connections,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
            body: JSON.stringify({
              title: 'Benchmark request',
              status: 'Open',
              priority: 'Medium',
              service_id: 1,
            }),
          }),
        );
      }
      posts.set(connections, medianFigures(runs));
    }
    report(medianFigures(suiteRuns), medianFigures(ceilingRuns), posts, list.body.length);
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(
  list: LoadFigures,
  ceiling: LoadFigures,
  posts: Map<number, LoadFigures>,
  bytes: number,
): void {
  const row = (name: string, figures: LoadFigures) => [
    name,
    round(figures.requestsPerSecond),
    String(figures.p50),
    String(figures.p99),
  ];
  const header = ['server', 'requests/s', 'p50 ms', 'p99 ms'];
  const body = `## HTTP on the demo data: GET list against the ceiling, sustained POST

Reproduce with \`npm run bench:http\` (\`bench/http.ts\`, needs \`npm run build\`). One \`suite start\`
process, demo data seeded, logging at \`error\`; load from autocannon on the same machine, ${SECONDS} s per
run, medians of ${RUNS} runs; list and ceiling runs alternate. Machine: ${machine()}.

### GET /api/v1/requests?limit=50 against the ceiling

The ceiling is a bare \`node:http\` server (\`bench/ceiling.ts\`) replaying the suite's answer from
memory: the identical ${bytes}-byte body and the same headers (an \`X-Request-Id\` included). 32 connections.

${table(header, [row('suite', list), row('ceiling (node:http, same bytes)', ceiling)])}

Ratio suite / ceiling: **${ratio(list.requestsPerSecond, ceiling.requestsPerSecond)}** (target >= 0.7x).

### POST /api/v1/requests, sustained

Each write durable (WAL, fsynced before the answer, group commit) and projected before the 201
(read-your-writes), at three client concurrencies: the latency of a request is the time its turn in
the single-threaded server takes, so it grows with the connections kept busy.

${table(
  header,
  [...posts].map(([connections, figures]) => row(`suite, ${connections} connections`, figures)),
)}

Targets: >= 3,000 requests/s, p99 < 25 ms.`;
  writeSection('http', body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
