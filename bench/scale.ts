import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import { createLogger } from '../src/api/kit/logging';
import { openSuite, settle, startWorker } from '../src/main';
import { SERVICES } from '../src/seed/esm-data';
import { seededBytes } from '../src/seed/random';
import { ceiling, readModels, rebuild } from './rebuild-ceiling';
import { generateScaleLog, type ScaleLog } from './scale-log';
import { benchConfig } from './service-desk-log';
import {
  PORTS,
  SUITE_URL,
  cpuMilliseconds,
  flags,
  loadWithCpu,
  machine,
  median,
  numberFlag,
} from './support';
import {
  ratio,
  recordAnswer,
  residentMegabytes,
  round,
  startCeiling,
  startSuiteProcess,
  stop,
} from './support';
import { table, writeSection, medianWithCpu, type CpuLoadFigures, type RecordedAnswer } from './support';

/**
 * A company's years of history on one machine: a log of N events of every module (bench/scale-log.ts),
 * then every figure of issue 57 on it, as shipped (`node dist/cli.js start`, default configuration,
 * request logs at `info` written to a file). Each size's figures are kept beside the logs
 * (BENCH_CACHE_DIR) so that the section shows every size measured side by side.
 * The generated log is kept (BENCH_CACHE_DIR/scale-N-log) and each run measures a copy of it: a log is
 * generated once per size and seed.
 * Usage: tsx bench/scale.ts --events 1000000 [--seconds 5] [--runs 3] [--connections 16] [--keep];
 * `--generate-only` stops once the log is kept; `--report` writes the section from the figures kept.
 */
const options = flags();
const EVENTS = numberFlag(options, 'events', 1_000_000);
const SECONDS = numberFlag(options, 'seconds', 5);
const RUNS = numberFlag(options, 'runs', 3);
const CONNECTIONS = numberFlag(options, 'connections', 16);
const RESTARTS = 3;
/** Requests made one after another to time a read that is not loaded (time travel, history, proofs). */
const SEQUENTIAL = 200;
const POST_CONNECTIONS = [16, 64];
const SEED = process.env.SUITE_SEED && process.env.SUITE_SEED !== 'none' ? process.env.SUITE_SEED : 'scale';
const CACHE = process.env.BENCH_CACHE_DIR ?? path.join(tmpdir(), 'suite-bench-logs');
const RESULTS = path.join(CACHE, 'scale-results.json');
const API_TOKEN = 'bench-token-0123456789';
const AUDIT_TOKEN = 'bench-audit-token-0123456789';
const AUDIT_URL = `http://127.0.0.1:${PORTS.audit}`;

interface Latency {
  p50: number;
  p99: number;
}

/** A size's figures, phase by phase: a run that stopped short keeps the phases it measured. */
interface Figures {
  log: ScaleLog;
  machine: string;
  rebuild?: { seconds: number; ceilingSeconds: number; documents: number };
  /** Bytes of each file of the data directory once built, projected and its tree grown. */
  files?: Record<string, number>;
  firstStart?: { seconds: number; treeSeconds: number };
  restarts?: { seconds: number; rssMb: number; cpuAtHealthMs: number; cpuFirstSecondsMs: number };
  gets?: Record<string, { suite: CpuLoadFigures; ceiling?: CpuLoadFigures }>;
  sequential?: Record<string, Latency>;
  posts?: Record<string, { suite: CpuLoadFigures; ceiling: CpuLoadFigures }>;
  erasure?: { seconds: number; subject: string };
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function main(): Promise<void> {
  if (options.has('report')) {
    // The section again from the figures kept, those of a run that stopped short included.
    const kept = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Figures[]) : [];
    return writeSection('scale', report(kept));
  }
  const log = await generatedLog();
  if (options.has('generate-only')) return;
  const dataDir = path.join(CACHE, `scale-${EVENTS}`);
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(logDir, dataDir, { recursive: true });
  try {
    const body = report(await measure(dataDir, log));
    writeSection('scale', body);
    console.log(body);
  } finally {
    if (!options.has('keep')) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Where the log of this size and seed is kept once generated, with its description. */
const logDir = path.join(CACHE, `scale-${EVENTS}-log`);
const logDescription = path.join(logDir, 'scale-log.json');

/** The log of this size and seed: the one kept, or one generated now and kept. */
async function generatedLog(): Promise<ScaleLog> {
  if (existsSync(logDescription)) {
    const kept = JSON.parse(readFileSync(logDescription, 'utf8')) as ScaleLog & { seed: string };
    if (kept.seed === SEED) return kept;
  }
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const suite = await openSuite(benchConfig(logDir), {
    logger: createLogger('silent'),
    randomBytes: seededBytes(SEED),
  });
  let log: ScaleLog;
  try {
    log = await generateScaleLog(suite, EVENTS, SEED);
  } finally {
    await suite.close();
  }
  writeFileSync(logDescription, JSON.stringify({ ...log, seed: SEED }));
  console.log(`generated ${log.events} events in ${log.seconds.toFixed(0)} s`);
  return log;
}

/** Keeps a size's figures as measured so far beside the others'; answers every size's. */
function keep(figures: Figures): Figures[] {
  const all = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as Figures[]) : [];
  const kept = [...all.filter((other) => other.log.events !== figures.log.events), figures];
  kept.sort((a, b) => a.log.events - b.log.events);
  writeFileSync(RESULTS, JSON.stringify(kept, null, 2));
  return kept;
}

async function measure(dataDir: string, log: ScaleLog): Promise<Figures[]> {
  const figures: Figures = { log, machine: machine() };
  keep(figures);
  // Every record as it was when the log was written: read back from the log, not the read model.
  const asOf = new Date().toISOString();
  // The read models are projected by the code path of `suite rebuild`: that is the rebuild measured.
  const rebuildSeconds = await rebuild(dataDir);
  const models = readModels(dataDir);
  const documents = [...models.tables.values()].reduce((sum, { rows }) => sum + rows.length, 0);
  const ceilingSeconds = ceiling(models);
  models.tables.clear();
  figures.rebuild = { seconds: rebuildSeconds, ceilingSeconds, documents };
  keep(figures);
  await runJobs(dataDir);
  console.log(`rebuild ${rebuildSeconds.toFixed(1)} s, ceiling ${ceilingSeconds.toFixed(1)} s`);

  const logFile = path.join(dataDir, 'suite.log');
  const logFd = openSync(logFile, 'a');
  try {
    const env = {
      SUITE_API_TOKEN: API_TOKEN,
      SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
      SUITE_LOG_LEVEL: 'info',
      // The write rate limit would answer 429 to a load generator.
      SUITE_WRITE_RATE_LIMIT: '0',
    };
    const start = () => startSuiteProcess(dataDir, env, { logs: logFd });
    // The first start grows the log tree over the whole log and runs the jobs the log made due.
    const first = await start();
    const treeSeconds = await waitForTree(log.events);
    await stop(first.child);
    console.log(`first start ${first.startupSeconds.toFixed(2)} s, tree after ${treeSeconds.toFixed(0)} s`);
    figures.files = filesOf(dataDir);
    figures.firstStart = { seconds: first.startupSeconds, treeSeconds };
    keep(figures);

    const restarts: NonNullable<Figures['restarts']>[] = [];
    let running = await start();
    for (let restart = 0; ; restart++) {
      const pid = running.child.pid as number;
      const rssMb = residentMegabytes(pid);
      const cpuAtHealthMs = cpuMilliseconds(pid);
      // The work a start leaves to the background (the log tree's check among it).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      restarts.push({
        seconds: running.startupSeconds,
        rssMb,
        cpuAtHealthMs,
        cpuFirstSecondsMs: cpuMilliseconds(pid),
      });
      console.log(`restart: ${running.startupSeconds.toFixed(2)} s, ${rssMb.toFixed(0)} MB`);
      if (restart === RESTARTS - 1) break;
      await stop(running.child);
      running = await start();
    }
    try {
      const pid = running.child.pid as number;
      figures.restarts = {
        seconds: median(restarts.map((run) => run.seconds)),
        rssMb: median(restarts.map((run) => run.rssMb)),
        cpuAtHealthMs: median(restarts.map((run) => run.cpuAtHealthMs)),
        cpuFirstSecondsMs: median(restarts.map((run) => run.cpuFirstSecondsMs)),
      };
      keep(figures);
      figures.gets = await measureGets(pid, log);
      keep(figures);
      figures.sequential = await measureSequential(log, asOf);
      keep(figures);
      const checkpointBefore = await checkpointSize();
      figures.posts = await measurePosts(pid);
      keep(figures);
      await waitForTree(checkpointBefore + 1);
      figures.sequential['consistency proof'] = await timed(
        Array.from(
          { length: SEQUENTIAL },
          () => `${AUDIT_URL}/api/v1/proofs/consistency?from=${checkpointBefore}`,
        ),
        AUDIT_TOKEN,
      );
      figures.erasure = await erase(log.erasedSubject);
      return keep(figures);
    } finally {
      await stop(running.child);
    }
  } finally {
    closeSync(logFd);
  }
}

/** As `suite start` would first: the jobs the log made due run, so that every start measured is a restart. */
async function runJobs(dataDir: string): Promise<void> {
  const suite = await openSuite(benchConfig(dataDir), { logger: createLogger('silent') });
  try {
    await suite.runtime.start();
    await startWorker(suite);
    await settle(suite);
  } finally {
    await suite.close();
  }
}

/** Every file of the data directory and its size, the write-ahead logs checkpointed (the suite stopped). */
function filesOf(dataDir: string): Record<string, number> {
  return Object.fromEntries(
    readdirSync(dataDir)
      .filter((name) => name.endsWith('.db'))
      .map((name) => [name, statSync(path.join(dataDir, name)).size]),
  );
}

async function checkpointSize(): Promise<number> {
  const answer = await fetch(`${AUDIT_URL}/api/v1/checkpoint`, { headers: auth(AUDIT_TOKEN) });
  if (answer.status === 404) return 0;
  if (!answer.ok) throw new Error(`checkpoint: ${answer.status}`);
  return Number((await answer.text()).split('\n')[1]);
}

/** Seconds until a checkpoint covers `size` events. */
async function waitForTree(size: number): Promise<number> {
  const started = performance.now();
  while ((await checkpointSize()) < size) await new Promise((resolve) => setTimeout(resolve, 250));
  return (performance.now() - started) / 1000;
}

/** Words of the requests' titles: searches that each match a share of the records (as bench/reads-scale.ts). */
const TERMS = [
  ...new Set(
    SERVICES.flatMap((service) =>
      service.requests.flatMap((request) => request.title.toLowerCase().split(/\W+/)),
    ),
  ),
].filter((word) => word.length >= 4);

/** `count` distinct numbers spread over 1..last. */
const spread = (count: number, last: number) =>
  Array.from({ length: count }, (_, index) => 1 + Math.floor(((index * 7919) % count) * (last / count)));

function cycling(paths: string[]): autocannon.Request[] {
  let next = 0;
  return [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] as string }) }];
}

async function measureGets(pid: number, log: ScaleLog): Promise<Figures['gets']> {
  const ids = spread(1000, log.requests);
  const searches = TERMS.flatMap((term) =>
    [0, 50, 100].map((offset) => `/api/v1/requests?q=${term}&limit=50&offset=${offset}`),
  );
  const endpoints: { name: string; paths: string[]; ceiling: boolean }[] = [
    { name: 'list, limit 50', paths: ['/api/v1/requests?limit=50'], ceiling: true },
    { name: 'by id, 1,000 ids cycled', paths: ids.map((id) => `/api/v1/requests/${id}`), ceiling: true },
    { name: `\`q\`, ${searches.length} distinct searches cycled`, paths: searches, ceiling: false },
  ];
  const gets: Figures['gets'] = {};
  for (const endpoint of endpoints) {
    const url = `${SUITE_URL}${endpoint.paths[0]}`;
    const common = { duration: SECONDS, connections: CONNECTIONS, timeout: 60, headers: auth(API_TOKEN) };
    const requests = endpoint.paths.length > 1 ? cycling(endpoint.paths) : undefined;
    // The first pass over the paths is the warm-up (the words' first counts among it), not recorded.
    for (const warm of endpoint.paths) await (await fetch(`${SUITE_URL}${warm}`)).arrayBuffer();
    const answer = endpoint.ceiling ? await recordAnswer(url) : undefined;
    const ceilingServer = answer && (await startCeiling(answer));
    const suiteRuns: CpuLoadFigures[] = [];
    const ceilingRuns: CpuLoadFigures[] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        suiteRuns.push(await loadWithCpu(pid, { ...common, url, requests }, { tolerateFailures: true }));
        if (ceilingServer) {
          const ceilingUrl = `${ceilingServer.url}${endpoint.paths[0]}`;
          ceilingRuns.push(await loadWithCpu(ceilingServer.pid, { ...common, url: ceilingUrl }));
        }
      }
    } finally {
      await ceilingServer?.stop();
    }
    gets[endpoint.name] = {
      suite: medianWithCpu(suiteRuns),
      ...(ceilingRuns.length > 0 && { ceiling: medianWithCpu(ceilingRuns) }),
    };
    console.log(`${endpoint.name}: p99 ${gets[endpoint.name]?.suite.p99} ms`);
  }
  return gets;
}

/** Each URL requested once, one after another: the latency of each, p50 and p99 in ms. */
async function timed(urls: string[], token: string): Promise<Latency> {
  const times: number[] = [];
  for (const url of urls) {
    const started = performance.now();
    const answer = await fetch(url, { headers: auth(token) });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(times.length * share))] as number;
  return { p50: at(0.5), p99: at(0.99) };
}

async function measureSequential(log: ScaleLog, asOf: string): Promise<Record<string, Latency>> {
  const ids = spread(SEQUENTIAL, log.requests);
  const positions = spread(SEQUENTIAL, log.events);
  return {
    '`as_of` read of a request': await timed(
      ids.map((id) => `${SUITE_URL}/api/v1/requests/${id}?as_of=${asOf}`),
      API_TOKEN,
    ),
    "a request's history": await timed(
      ids.map((id) => `${AUDIT_URL}/api/v1/history/esm/requests/${id}`),
      AUDIT_TOKEN,
    ),
    'inclusion proof': await timed(
      positions.map((position) => `${AUDIT_URL}/api/v1/proofs/inclusion?position=${position}`),
      AUDIT_TOKEN,
    ),
  };
}

/** A POST's answer, for the ceiling to replay. */
async function recordPost(body: string): Promise<RecordedAnswer> {
  const answer = await fetch(`${SUITE_URL}/api/v1/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(API_TOKEN) },
    body,
  });
  if (!answer.ok) throw new Error(`POST: ${answer.status}`);
  return {
    body: Buffer.from(await answer.arrayBuffer()),
    requestId: answer.headers.get('x-request-id') ?? '',
  };
}

async function measurePosts(pid: number): Promise<Figures['posts']> {
  const body = JSON.stringify({
    title: 'Benchmark request',
    status: 'Open',
    priority: 'Medium',
    service_id: 1,
  });
  const ceilingServer = await startCeiling(await recordPost(body));
  const posts: Figures['posts'] = {};
  try {
    for (const connections of POST_CONNECTIONS) {
      const post = {
        method: 'POST' as const,
        duration: SECONDS,
        connections,
        headers: { 'content-type': 'application/json', ...auth(API_TOKEN) },
        body,
      };
      const suiteRuns: CpuLoadFigures[] = [];
      const ceilingRuns: CpuLoadFigures[] = [];
      for (let run = 0; run < RUNS; run++) {
        suiteRuns.push(await loadWithCpu(pid, { ...post, url: `${SUITE_URL}/api/v1/requests` }));
        ceilingRuns.push(await loadWithCpu(ceilingServer.pid, { ...post, url: `${ceilingServer.url}/` }));
      }
      posts[`${connections} connections`] = {
        suite: medianWithCpu(suiteRuns),
        ceiling: medianWithCpu(ceilingRuns),
      };
      console.log(
        `POST, ${connections} connections: ${round(posts[`${connections} connections`]?.suite.requestsPerSecond ?? 0)}/s`,
      );
    }
  } finally {
    await ceilingServer.stop();
  }
  return posts;
}

/** `POST /api/v1/erasures`: answered once no read model holds the subject's data. */
async function erase(subject: string): Promise<Figures['erasure']> {
  const started = performance.now();
  const answer = await fetch(`${AUDIT_URL}/api/v1/erasures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(API_TOKEN) },
    body: JSON.stringify({ subject, reason: 'scale benchmark' }),
  });
  const text = await answer.text();
  if (answer.status !== 201) throw new Error(`erasure: ${answer.status} ${text}`);
  return { seconds: (performance.now() - started) / 1000, subject };
}

const mib = (bytes: number) => round(bytes / 2 ** 20);

/** A row of one figure for every size; a size whose run did not get to it shows "not measured". */
function rows(all: readonly Figures[]): string[][] {
  const row = (name: string, cell: (figures: Figures) => string | undefined) => [
    name,
    ...all.map((figures) => cell(figures) ?? 'not measured'),
  ];
  const names = (of: (figures: Figures) => object | undefined) => [
    ...new Set(all.flatMap((figures) => Object.keys(of(figures) ?? {}))),
  ];
  const total = (files: Record<string, number>) => Object.values(files).reduce((sum, size) => sum + size, 0);
  return [
    row(
      'events (requests, attendance records)',
      (f) => `${round(f.log.events)} (${round(f.log.requests)}, ${round(f.log.attendance)})`,
    ),
    row('generated in s', (f) => round(f.log.seconds)),
    row(
      'rebuild events/s (s)',
      (f) => f.rebuild && `${round(f.log.events / f.rebuild.seconds)} (${round(f.rebuild.seconds, 1)})`,
    ),
    row(
      'rebuild / ceiling of raw inserts (target >= 0.8)',
      (f) => f.rebuild && `**${ratio(f.rebuild.ceilingSeconds, f.rebuild.seconds)}**`,
    ),
    row(
      'first start s; log tree grown after s',
      (f) => f.firstStart && `${round(f.firstStart.seconds, 2)}; ${round(f.firstStart.treeSeconds, 1)}`,
    ),
    row('restart s (target < 1)', (f) => f.restarts && `**${round(f.restarts.seconds, 2)}**`),
    row('RSS after restart MB (target < 300)', (f) => f.restarts && `**${round(f.restarts.rssMb)}**`),
    row(
      'restart CPU ms until health; by 3 s after',
      (f) => f.restarts && `${round(f.restarts.cpuAtHealthMs)}; ${round(f.restarts.cpuFirstSecondsMs)}`,
    ),
    ...names((f) => f.gets).flatMap((name) => [
      row(`GET ${name}: p50 / p99 ms`, (f) => {
        const get = f.gets?.[name];
        return get && `${get.suite.p50} / **${get.suite.p99}**`;
      }),
      row(`GET ${name}: req/s, CPU µs/req (ceiling's)`, (f) => {
        const get = f.gets?.[name];
        if (!get) return undefined;
        const ceilingCell = get.ceiling
          ? ` (${round(get.ceiling.requestsPerSecond)}, ${round(get.ceiling.cpuMicros)})`
          : '';
        return `${round(get.suite.requestsPerSecond)}, ${round(get.suite.cpuMicros)}${ceilingCell}`;
      }),
    ]),
    ...names((f) => f.posts).flatMap((name) => [
      row(`POST, ${name}: req/s, p99 ms`, (f) => {
        const post = f.posts?.[name];
        return post && `${round(post.suite.requestsPerSecond)}, ${post.suite.p99}`;
      }),
      row(`POST, ${name}: CPU µs/req (ceiling's)`, (f) => {
        const post = f.posts?.[name];
        return post && `${round(post.suite.cpuMicros)} (${round(post.ceiling.cpuMicros)})`;
      }),
    ]),
    ...names((f) => f.sequential).map((name) =>
      row(`${name}: p50 / p99 ms`, (f) => {
        const latency = f.sequential?.[name];
        return latency && `${round(latency.p50, 1)} / **${round(latency.p99, 1)}**`;
      }),
    ),
    row(
      'erasure of a subject with 100 events, s (target < 1)',
      (f) => f.erasure && `**${round(f.erasure.seconds, 2)}**`,
    ),
    ...names((f) => f.files).map((name) =>
      row(`${name}: MiB (bytes/event)`, (f) => {
        const size = f.files?.[name];
        return size === undefined ? undefined : `${mib(size)} (${round(size / f.log.events)})`;
      }),
    ),
    row(
      'all files: MiB (bytes/event)',
      (f) => f.files && `${mib(total(f.files))} (${round(total(f.files) / f.log.events)})`,
    ),
  ];
}

function report(all: Figures[]): string {
  const sizes = all.map((figures) => round(figures.log.events));
  const machines = [...new Set(all.map((figures) => figures.machine))].join('; ');
  return `## Ten million events: the costs at scale

Reproduce with \`npm run bench:scale -- --events 10000000\` (\`bench/scale.ts\`, needs \`npm run build\`;
\`SUITE_SEED\` chooses the generated log, default \`scale\`; each size's figures are kept in
\`$BENCH_CACHE_DIR/scale-results.json\` and shown side by side; a size's log is generated once, kept in
\`$BENCH_CACHE_DIR/scale-N-log\`, and each run measures a copy of it). The log (\`bench/scale-log.ts\`): every
module's demo data written by the modules' seeds, then service requests taken through their life by the
request decider and the demo employees' daily attendance (up to five years of working days) by the
attendance decider, appended through the personal-data seal in group commits of ${2000} appends (form
answers and names sealed under their subjects' keys). The read models are then projected by the code
path of \`suite rebuild\` (the rebuild measured; its ceiling inserts the same final documents and search
text into the same tables in one transaction, as in \`bench/rebuild.ts\`). The suite then runs as shipped,
\`node dist/cli.js start\` with the default configuration, request logs at \`info\` written to a file, the
write rate limit off for the load generator; its first start grows the log tree over the whole log (not
in the medians). Restarts: medians of ${RESTARTS}, time until \`/api/v1/health\` answers, RSS and the CPU
the process spent (\`/proc\`) then, and its CPU by 3 s after (the work a start leaves to the background). GETs: autocannon, ${CONNECTIONS} connections,
${SECONDS} s per run, medians of ${RUNS} runs, after one pass over the paths; "CPU µs/req" from
\`/proc/<pid>/stat\`; the ceiling (\`bench/ceiling.ts\`) replays the same bytes from memory. Time travel,
history and proofs: ${SEQUENTIAL} distinct requests one after another (each a different record or
position). POSTs: ${POST_CONNECTIONS.join(' and ')} connections, the ceiling answering the same 201 bytes.
The erasure: \`POST /api/v1/erasures\` of an employee whose personal data is in 100 events, answered once
the read models are folded again. File sizes after the first start (write-ahead logs checkpointed).
Machine: ${machines}.

${table(['', ...sizes], rows(all))}`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
