import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { SERVICES } from '../src/seed/esm-data';
import { serviceDeskLog, type ServiceDeskLog } from './service-desk-log';
import { SUITE_URL, flags, load, machine, numberFlag, ratio, round, sizesFlag } from './support';
import {
  recordAnswer,
  startCeiling,
  startSuiteProcess,
  stop,
  table,
  writeSection,
  loadWithCpu,
  medianWithCpu,
  type CpuLoadFigures,
  type LoadFigures,
} from './support';

/**
 * GET list (limit 50), GET by id and GET list with `q` on the service desk's requests at 10k, 100k
 * and 1M records, each against the ceiling (bench/ceiling.ts: the same answer from memory).
 * Usage: tsx bench/reads-scale.ts [--sizes 10000,100000,1000000] [--seconds 8] [--runs 3]
 */
const options = flags();
const SIZES = sizesFlag(options, [10_000, 100_000, 1_000_000]);
const SECONDS = numberFlag(options, 'seconds', 8);
const RUNS = numberFlag(options, 'runs', 3);
const CONNECTIONS = 32;
/** Requests written per second meanwhile, in the row that searches while the service desk is written to. */
const WRITES_PER_SECOND = 100;
const TOKEN = 'bench-token-0123456789';

/** Words of the requests' titles: searches that each match a share of the records. */
const TERMS = [
  ...new Set(
    SERVICES.flatMap((service) =>
      service.requests.flatMap((request) => request.title.toLowerCase().split(/\W+/)),
    ),
  ),
].filter((word) => word.length >= 4);

interface Endpoint {
  name: string;
  path: string;
  /** Paths cycled through instead of `path`, so that no answer comes from the read store's page cache. */
  cycle?: string[];
  /** Each path of the cycle requested once, in one run, on a process that has not searched them yet. */
  once?: boolean;
  /** Requests POSTed per second while the suite's runs load it (on a copy of the log). */
  writesPerSecond?: number;
}

function endpoints(requests: number): Endpoint[] {
  // More distinct queries than the 512 pages the read store caches per collection.
  const cold = TERMS.flatMap((term) =>
    [0, 50, 100].map((offset) => `/api/v1/requests?q=${term}&limit=50&offset=${offset}`),
  );
  const filtered = cold.map((search) => `${search}&status=Open`);
  const words = TERMS.map((term) => `/api/v1/requests?q=${term}&limit=50`);
  return [
    { name: 'list, limit 50', path: '/api/v1/requests?limit=50' },
    { name: 'by id', path: `/api/v1/requests/${Math.ceil(requests / 2)}` },
    { name: '`q=laptop`, limit 50 (page cache)', path: '/api/v1/requests?q=laptop&limit=50' },
    {
      name: `\`q\`, first pass: ${cold.length} distinct queries once each, on a new process`,
      path: cold[0] as string,
      cycle: cold,
      once: true,
    },
    { name: `\`q\`, ${cold.length} distinct queries (no cache)`, path: cold[0] as string, cycle: cold },
    {
      name: `\`q\` and \`status=Open\`, ${filtered.length} distinct queries (no cache)`,
      path: filtered[0] as string,
      cycle: filtered,
    },
    {
      name: `\`q\`, ${words.length} words cycled, ${WRITES_PER_SECOND} POST/s meanwhile`,
      path: words[0] as string,
      cycle: words,
      writesPerSecond: WRITES_PER_SECOND,
    },
  ];
}

function cycling(paths: string[]): autocannon.Request[] {
  let next = 0;
  return [
    {
      setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] as string }),
    },
  ];
}

interface Row {
  records: number;
  endpoint: string;
  bytes: number;
  suite: CpuLoadFigures;
  ceiling: CpuLoadFigures;
}

async function measure(size: number): Promise<Row[]> {
  const log = await serviceDeskLog({ requests: size });
  const all = endpoints(log.requests);
  const rows = await measureOn(
    log,
    log.dataDir,
    all.filter((endpoint) => !endpoint.writesPerSecond),
  );
  // Writes would change the cached log: those rows run on a copy of it.
  const copy = mkdtempSync(path.join(tmpdir(), 'suite-bench-reads-'));
  try {
    cpSync(log.dataDir, copy, { recursive: true });
    rows.push(
      ...(await measureOn(
        log,
        copy,
        all.filter((endpoint) => endpoint.writesPerSecond),
      )),
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
  return rows;
}

/** Each endpoint against its ceiling, on one `suite start` process on `dataDir` (the log or a copy). */
async function measureOn(log: ServiceDeskLog, dataDir: string, measured: Endpoint[]): Promise<Row[]> {
  // The write rate limit would answer 429 to a load generator.
  const start = async () =>
    (await startSuiteProcess(dataDir, { SUITE_API_TOKEN: TOKEN, SUITE_WRITE_RATE_LIMIT: '0' })).child;
  let child = await start();
  const rows: Row[] = [];
  try {
    for (const endpoint of measured) {
      const answer = await recordAnswer(`${SUITE_URL}${endpoint.path}`);
      const ceiling = await startCeiling(answer);
      const suiteRuns: CpuLoadFigures[] = [];
      const ceilingRuns: CpuLoadFigures[] = [];
      try {
        // A slow search must show in the figures (and the failures column), not end the benchmark.
        const common = { duration: SECONDS, connections: CONNECTIONS, timeout: 60 };
        const tolerant = { tolerateFailures: true };
        const requests = endpoint.cycle ? cycling(endpoint.cycle) : undefined;
        const suiteUrl = `${SUITE_URL}${endpoint.path}`;
        const ceilingUrl = `${ceiling.url}${endpoint.path}`;
        if (endpoint.once) {
          // One pass per run, each search its word's first, on a process started for it (the process keeps
          // the words' totals after it: the last one serves the rows that follow).
          const amount = endpoint.cycle?.length;
          for (let run = 0; run < RUNS; run++) {
            await stop(child);
            child = await start();
            suiteRuns.push(
              await loadWithCpu(
                child.pid as number,
                { ...common, amount, url: suiteUrl, requests: cycling(endpoint.cycle ?? []) },
                tolerant,
              ),
            );
            ceilingRuns.push(await loadWithCpu(ceiling.pid, { ...common, amount, url: ceilingUrl }));
          }
        } else {
          // Warm-up (JIT, SQLite's page cache, the searches' first counts), not recorded.
          for (const cycled of endpoint.cycle ?? []) await fetch(`${SUITE_URL}${cycled}`).then(drain);
          await load({ ...common, duration: 1, url: suiteUrl, requests }, tolerant);
          await load({ ...common, duration: 1, url: ceilingUrl });
          for (let run = 0; run < RUNS; run++) {
            const writing = endpoint.writesPerSecond ? writeRequests(endpoint.writesPerSecond) : undefined;
            suiteRuns.push(
              await loadWithCpu(child.pid as number, { ...common, url: suiteUrl, requests }, tolerant),
            );
            await writing;
            ceilingRuns.push(await loadWithCpu(ceiling.pid, { ...common, url: ceilingUrl }));
          }
        }
      } finally {
        await ceiling.stop();
      }
      const row = {
        records: log.requests,
        endpoint: endpoint.name,
        bytes: answer.body.length,
        suite: medianWithCpu(suiteRuns),
        ceiling: medianWithCpu(ceilingRuns),
      };
      console.log(
        `${row.records} records, ${row.endpoint}: ${round(row.suite.requestsPerSecond)} req/s ` +
          `(ceiling ${round(row.ceiling.requestsPerSecond)}), p99 ${row.suite.p99} ms`,
      );
      rows.push(row);
    }
  } finally {
    await stop(child);
  }
  return rows;
}

async function drain(answer: Response): Promise<void> {
  if (!answer.ok) throw new Error(`${answer.url}: ${answer.status}`);
  await answer.arrayBuffer();
}

/** POST /api/v1/requests at `perSecond` for one run's duration; titles of the searched words. */
function writeRequests(perSecond: number): Promise<LoadFigures> {
  const titles = SERVICES.flatMap((service) => service.requests.map((request) => request.title));
  let next = 0;
  return load({
    url: `${SUITE_URL}/api/v1/requests`,
    method: 'POST',
    duration: SECONDS,
    connections: 4,
    overallRate: perSecond,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            title: titles[next++ % titles.length],
            status: 'Open',
            priority: 'Medium',
            service_id: 1,
          }),
        }),
      },
    ],
  });
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  for (const size of SIZES) rows.push(...(await measure(size)));
  const header = [
    'records',
    'GET',
    'bytes',
    'suite req/s',
    'p50 ms',
    'p99 ms',
    'CPU µs',
    'ceiling req/s',
    'p50',
    'p99',
    'CPU µs',
    'ratio',
    'failed',
  ];
  const cells = rows.map((row) => [
    round(row.records),
    row.endpoint,
    round(row.bytes),
    round(row.suite.requestsPerSecond),
    String(row.suite.p50),
    String(row.suite.p99),
    round(row.suite.cpuMicros),
    round(row.ceiling.requestsPerSecond),
    String(row.ceiling.p50),
    String(row.ceiling.p99),
    round(row.ceiling.cpuMicros),
    `**${ratio(row.suite.requestsPerSecond, row.ceiling.requestsPerSecond)}**`,
    String(row.suite.failed),
  ]);
  const body = `## Reads against the size of the service desk

Reproduce with \`npm run bench:reads -- --sizes ${SIZES.join(',')}\` (\`bench/reads-scale.ts\`, needs
\`npm run build\`). The records are service requests: the demo service desk plus synthetic requests taken
through the seed's workflow (as for the rebuild benchmark), projected, cached between runs; the suite
runs \`node dist/cli.js start\` on them (\`SUITE_SEED=none\`). Each GET is loaded by autocannon, ${CONNECTIONS}
connections, ${SECONDS} s per run after 1 s of warm-up, medians of ${RUNS} runs, suite and ceiling alternating; the ceiling
(\`bench/ceiling.ts\`) replays the suite's answer from memory (the same body and headers, an
\`X-Request-Id\` included). The read store caches answered pages until a commit may have changed them,
so a repeated list or search is served from that cache. The "no cache" row cycles through more distinct
searches (title words, first three pages) than the 512 pages it keeps, so every page is read from the
index; each word's total is counted at its first search and kept, a live write moving it. A search within
one word is counted and read from the word index, and counted from FTS5's own count of that word's
documents when it is within one word of the vocabulary (at 1M records, by hand: the 388 words' counts
took 0.36 s by MATCH and 0.22 s so, against 2.2 to 2.5 s by trigram, the largest 36 to 57 ms, as every
search was counted before the word index). Pages that are not cached are read one per turn of the event
loop, in the order asked, so the other connections' requests are answered between two counts; they wait
while the servers accept new connections (libuv accepts one per turn). The "first pass" row requests
each of those searches once, on a process started for each run (its first requests), so that
it counts every word's total (autocannon ends a run on a whole-second tick, so its requests/s is at most
the 1,164 requests over one second; the ceiling's p99 in that row is the load generator's own start). The first
pass also reads the index and the documents it needs from disk when the read-model file is not in the
operating system's page cache. In the "no cache" row that follows, every total
is known and every page is read from the index. The row after it does the same within the open
requests (7% of them): its first run counts each search, and lists the ids of its results with the count
when they are 5,000 or fewer (all but a few words' at 1M records); every page after reads its documents
by those ids. The last row runs on a copy of the log, after each
word has been searched once: its title words are searched while ${WRITES_PER_SECOND} requests/s with the same
titles are POSTed (4 connections), so that each write adds to some searches' totals; a live write's commit
moves the totals it can account for and keeps the pages of searches its documents do not match, so the
words are not counted again. "CPU µs" is the server process's CPU time per answered GET, from
\`/proc/<pid>/stat\` over the same runs (medians; in the last row the suite's includes the writes). "failed" counts non-2xx answers, errors and timeouts (60 s) of the suite in
the worst run. Machine: ${machine()}.

${table(header, cells)}

Targets: list and by id >= 0.7x the ceiling's requests/s; \`q\` p99 < 50 ms at 1M records.`;
  writeSection('reads-scale', body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
