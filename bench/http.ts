import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SUITE_URL,
  cpuMilliseconds,
  flags,
  load,
  machine,
  median,
  medianFigures,
  numberFlag,
  ratio,
  round,
  table,
} from './support';
import {
  PORTS,
  SECOND_SUITE,
  recordAnswer,
  startCeiling,
  startSuiteProcess,
  stop,
  writeSection,
  type LoadFigures,
} from './support';

/**
 * GET /api/v1/requests?limit=50 against a bare node:http server replaying the same answer (the ceiling),
 * on a suite logging at `error` and on one logging as shipped (`info`: a line per request, written to a
 * file), then sustained POST /api/v1/requests, on the demo data.
 * Usage: tsx bench/http.ts [--seconds 8] [--runs 3]
 */
const options = flags();
const SECONDS = numberFlag(options, 'seconds', 8);
const RUNS = numberFlag(options, 'runs', 3);
const POST_CONNECTIONS = [16, 32, 64];
const TOKEN = 'bench-token-0123456789';
const LIST_PATH = '/api/v1/requests?limit=50';

const SUITE_ENV = {
  SUITE_SEED: 'demo',
  SUITE_API_TOKEN: TOKEN,
  // The write rate limit would answer 429 to a load generator.
  SUITE_WRITE_RATE_LIMIT: '0',
};

/**
 * One load run and the server's CPU time per answered request, in microseconds: what the throughput
 * of a busy machine (the load generator and other work beside it) hides.
 */
async function measured(url: string, pid: number): Promise<LoadFigures & { cpuMicros: number }> {
  const before = cpuMilliseconds(pid);
  const figures = await load({ url, duration: SECONDS });
  return { ...figures, cpuMicros: ((cpuMilliseconds(pid) - before) * 1000) / figures.answered };
}

/** The request lines a suite logging at `info` wrote to its log file. */
const requestLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"msg":"request completed"')).length;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'suite-bench-'));
  const loggingDir = mkdtempSync(path.join(tmpdir(), 'suite-bench-logging-'));
  const logFile = path.join(loggingDir, 'suite.log');
  const logFd = openSync(logFile, 'w');
  const { child } = await startSuiteProcess(dataDir, SUITE_ENV);
  const logging = await startSuiteProcess(
    loggingDir,
    { ...SUITE_ENV, SUITE_LOG_LEVEL: 'info' },
    { logs: logFd, offset: SECOND_SUITE },
  ).catch(async (error: unknown) => {
    await stop(child);
    throw error;
  });
  const loggingUrl = `http://127.0.0.1:${PORTS.suite + SECOND_SUITE}`;
  let loggingStopped = false;
  try {
    const list = await recordAnswer(`${SUITE_URL}${LIST_PATH}`);
    const logged = await recordAnswer(`${loggingUrl}${LIST_PATH}`);
    if (!logged.body.equals(list.body)) throw new Error('The two suites answered different lists');
    const ceiling = await startCeiling(list);
    const suiteRuns: Measured[] = [];
    const loggingRuns: Measured[] = [];
    const ceilingRuns: Measured[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        suiteRuns.push(await measured(`${SUITE_URL}${LIST_PATH}`, child.pid as number));
        loggingRuns.push(await measured(`${loggingUrl}${LIST_PATH}`, logging.child.pid as number));
        ceilingRuns.push(await measured(`${ceiling.url}${LIST_PATH}`, ceiling.pid));
      }
    } finally {
      await ceiling.stop();
    }
    // Stopped, it has flushed its log: every request it answered has its line.
    await stop(logging.child);
    loggingStopped = true;
    const lines = requestLines(logFile);

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
    const gets = {
      error: medianMeasured(suiteRuns),
      info: medianMeasured(loggingRuns),
      ceiling: medianMeasured(ceilingRuns),
      lines,
    };
    report(gets, posts, list.body.length);
  } finally {
    await stop(child);
    if (!loggingStopped) await stop(logging.child);
    closeSync(logFd);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(loggingDir, { recursive: true, force: true });
  }
}

type Measured = LoadFigures & { cpuMicros: number };

const medianMeasured = (runs: readonly Measured[]): Measured => ({
  ...medianFigures(runs),
  cpuMicros: median(runs.map((run) => run.cpuMicros)),
});

interface GetFigures {
  /** The suite logging at `error`, at `info` (as shipped), and the ceiling. */
  error: Measured;
  info: Measured;
  ceiling: Measured;
  /** Request lines the suite at `info` wrote. */
  lines: number;
}

function report(gets: GetFigures, posts: Map<number, LoadFigures>, bytes: number): void {
  const row = (name: string, figures: LoadFigures) => [
    name,
    round(figures.requestsPerSecond),
    String(figures.p50),
    String(figures.p99),
  ];
  const header = ['server', 'requests/s', 'p50 ms', 'p99 ms'];
  const body = `## HTTP on the demo data: GET list against the ceiling, sustained POST

Reproduce with \`npm run bench:http\` (\`bench/http.ts\`, needs \`npm run build\`). Two \`suite start\`
processes side by side, demo data seeded in each: one logging at \`error\`, one as shipped (\`info\`, a
line per request, its standard output written to a file as a log collector would). Load from autocannon
on the same machine, ${SECONDS} s per run, medians of ${RUNS} runs; the runs of the three servers alternate.
Machine: ${machine()}.

### GET /api/v1/requests?limit=50 against the ceiling

The ceiling is a bare \`node:http\` server (\`bench/ceiling.ts\`) replaying the suite's answer from
memory: the identical ${bytes}-byte body and the same headers (an \`X-Request-Id\` included). 32 connections.

${table(
  [...header, 'CPU µs per request'],
  [
    [...row('suite, logging at error', gets.error), round(gets.error.cpuMicros)],
    [...row('suite, logging at info (as shipped)', gets.info), round(gets.info.cpuMicros)],
    [...row('ceiling (node:http, same bytes)', gets.ceiling), round(gets.ceiling.cpuMicros)],
  ],
)}

Ratio suite / ceiling: **${ratio(gets.error.requestsPerSecond, gets.ceiling.requestsPerSecond)}** at
\`error\` (target >= 0.7x), **${ratio(gets.info.requestsPerSecond, gets.ceiling.requestsPerSecond)}** at
\`info\` (target >= 0.9x: request logs cost at most 10 %). CPU time per request, from the servers'
\`/proc\` counters over the same runs (medians): the suite at \`info\` spends
${ratio(gets.info.cpuMicros, gets.error.cpuMicros)} the CPU of the suite at \`error\` on a request. The suite at \`info\` answered
${round(gets.info.answered)} requests and its log file holds ${round(gets.lines)} request lines once it stopped.

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
