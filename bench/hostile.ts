import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { MODULE_IDS } from '../src/modules/ids';
import { signSession } from '../src/market/session';
import {
  CLASSES,
  accessHeaders,
  VALUE_MUTATIONS,
  nameOf,
  operationsOf,
  positionsOf,
  problemsWith,
  readFaults,
  requestFaults,
  sampleBody,
  send,
  valueRequest,
  type Credentials,
  type HostileClass,
  type HostileRequest,
  type Operation,
  type Outcome,
} from '../test/support/hostile-requests';
import { CLI, ROOT, flags, machine, residentMegabytes, round, stop, table } from './support';

/**
 * Sends every class of hostile input (bench/../test/support/hostile-requests.ts) to every write and
 * read endpoint of every module and the audit API of the built suite (`node dist/cli.js start` on the
 * demo data, everything as shipped but the ports), one class per fresh copy of the seeded data
 * directory, and counts what came back: answers by status family, errors outside the error shape or
 * of 8 kB or more, process exits, failed health checks, read models that stopped (a valid service-desk
 * write after the class does not answer 201), parked events and the server's RSS. Writes the table
 * into docs/RELIABILITY.md between `<!-- bench:hostile -->` markers.
 *
 * Usage: tsx bench/hostile.ts [--class "odd Unicode"] [--no-doc]. BENCH_CLI runs another build.
 */

const RELIABILITY_DOC = path.join(ROOT, 'docs/RELIABILITY.md');
const HOST = '127.0.0.1';
/**
 * The modules on 28381-28390, the audit API on 28391, metrics on 28399: clear of the defaults, and below
 * the ephemeral range (32768+), where a client socket may hold a port the suite is about to listen on.
 */
const PORT = 28_381;
const AUDIT_PORT = PORT + MODULE_IDS.length;
const METRICS_PORT = PORT + 18;
const TOKEN = 'bench-hostile-api-token';
const AUDIT_TOKEN = 'bench-hostile-audit-token';
const SESSION_SECRET = 'bench-hostile-session-secret-0123456789';
const ANSWER_TIMEOUT_MS = 10_000;

const options = flags();
const ONLY = options.get('class');
const WRITE_DOC = !options.has('no-doc');

const portOf = (module: (typeof MODULE_IDS)[number]) => PORT + MODULE_IDS.indexOf(module);

function env(dataDir: string, seed: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...Object.fromEntries(
      MODULE_IDS.map((module) => [`SUITE_${module.toUpperCase()}_PORT`, String(portOf(module))]),
    ),
    SUITE_AUDIT_PORT: String(AUDIT_PORT),
    SUITE_METRICS_PORT: String(METRICS_PORT),
    SUITE_CONSOLE_PORT: String(PORT + 19),
    SUITE_DATA_DIR: dataDir,
    SUITE_SEED: seed,
    SUITE_LOG_LEVEL: 'fatal',
    SUITE_API_TOKEN: TOKEN,
    SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
    SUITE_SESSION_SECRET: SESSION_SECRET,
  };
}

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** The last lines the process wrote to stderr (what it died of). */
  stderr(): string;
}

async function answers(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  try {
    return (await fetch(`http://${HOST}:${port}${path}`, { headers })).status;
  } catch {
    return 0;
  }
}

/** `suite start` on `dataDir`; resolves once every module and the audit API answer, rejects if it exits. */
async function start(dataDir: string, seed = 'none'): Promise<Running> {
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: env(dataDir, seed),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ports = [...MODULE_IDS.map(portOf), AUDIT_PORT];
  for (let attempt = 0; attempt < 1200; attempt++) {
    if (child.exitCode !== null)
      throw new Error(`suite start exited with ${child.exitCode}: ${lastLine(tail)}`);
    const statuses = await Promise.all(ports.map((port) => answers(port, '/api/v1/health')));
    if (statuses.every((status) => status === 200)) return { child, exited, stderr: () => tail };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop(child);
  throw new Error('suite start did not answer on every port');
}

/** What a process died of: the last `SomeError: message` line it wrote, else its last line. */
const lastLine = (text: string) => {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.filter((line) => /^\w*Error\b/.test(line)).pop() ?? lines.pop() ?? '';
};

interface Target {
  name: string;
  port: number;
  operations: Operation[];
  credentials: Credentials;
}

interface Json {
  [key: string]: unknown;
}

/** The descriptions of every listener, and the ids their path parameters need, from the running suite. */
async function discoverTargets(): Promise<Target[]> {
  const cookie = `svc_session=${signSession(SESSION_SECRET, 'bench-hostile', new Date(Date.now() + 86_400_000))}`;
  const base: Credentials = {
    token: TOKEN,
    auditToken: AUDIT_TOKEN,
    cookie,
    organisation: 'ws-acme',
    actor: 'm-acme-owner',
  };
  const listeners = [
    ...MODULE_IDS.map((module) => ({ name: module as string, port: portOf(module) })),
    { name: 'audit', port: AUDIT_PORT },
  ];
  const targets: Target[] = [];
  for (const { name, port } of listeners) {
    const description = await (await fetch(`http://${HOST}:${port}/api/openapi.json`)).json();
    const operations = operationsOf(description);
    const credentials: Credentials = { ...base, pathValues: {}, bodyOverrides: {} };
    for (const operation of operations) {
      for (const match of operation.path.matchAll(/\{(\w+)\}/g)) {
        const parameter = match[1] as string;
        const value = await firstId(port, operations, operation, parameter, credentials);
        if (value !== undefined)
          (credentials.pathValues as Record<string, string>)[`${nameOf(operation)} ${parameter}`] = value;
      }
    }
    if (name === 'clm') {
      const contract = credentials.pathValues?.['POST /contracts/{id}/signatures id'];
      if (contract)
        (credentials.bodyOverrides as Record<string, Json>)['POST /api/v1/obligations'] = {
          contract_id: contract,
        };
    }
    if (name === 'audit')
      Object.assign(credentials.pathValues as object, { module: 'esm', resource: 'requests', id: '1' });
    targets.push({ name, port, operations, credentials });
  }
  return targets;
}

/** The id of the first record of the list a path parameter points into (`/api/v1/contracts` for `{id}`). */
async function firstId(
  port: number,
  operations: Operation[],
  operation: Operation,
  parameter: string,
  credentials: Credentials,
): Promise<string | undefined> {
  const prefix = operation.path.slice(0, operation.path.indexOf(`/{${parameter}}`));
  const list = operations.find(
    (candidate) =>
      candidate.method === 'get' && (candidate.path === prefix || candidate.path === `/api/v1${prefix}`),
  );
  if (!list) return undefined;
  const headers = Object.fromEntries(accessHeaders(list, credentials));
  try {
    const answer = await fetch(`http://${HOST}:${port}${list.path}`, { headers });
    const body = (await answer.json()) as { data?: Json[] };
    const first = body.data?.[0];
    const value = first?.[parameter] ?? first?.id;
    return value === undefined ? undefined : String(value);
  } catch {
    return undefined;
  }
}

interface Planned {
  port: number;
  request: HostileRequest;
}

/** Every request of a class, to every operation of every listener. */
function plan(klass: HostileClass, targets: readonly Target[]): Planned[] {
  const planned: Planned[] = [];
  for (const { port, operations, credentials } of targets) {
    for (const operation of operations) {
      const requests: HostileRequest[] = [];
      if (operation.body) {
        const sample = sampleBody(operation, credentials);
        for (const position of positionsOf(sample ?? null, operation.body)) {
          for (const mutation of VALUE_MUTATIONS.filter((candidate) => candidate.class === klass)) {
            const request = valueRequest(operation, credentials, position.path, mutation);
            if (request) requests.push(request);
          }
        }
        requests.push(...requestFaults(operation, credentials).filter((request) => request.class === klass));
      }
      if (operation.method === 'get')
        requests.push(...readFaults(operation, credentials).filter((request) => request.class === klass));
      planned.push(...requests.map((request) => ({ port, request })));
    }
  }
  return planned;
}

interface Row {
  klass: HostileClass;
  sent: number;
  families: Record<'2xx' | '3xx' | '4xx' | '5xx' | 'none', number>;
  /** Errors outside the error shape, of 8 kB or more, or not the status they must get (413). */
  malformed: number;
  exits: number;
  refusedRestarts: number;
  healthFailures: number;
  /** Requests after which a valid service-desk write no longer answered 201 (then a fresh copy is started). */
  stopped: number;
  parked: string;
  rss: { before: number; peak: number; after: number };
  /** What broke, by kind (numbers left out), with how often and the first request it broke on. */
  failures: Map<string, { count: number; example: string }>;
}

const family = (outcome: Outcome): keyof Row['families'] =>
  'failed' in outcome ? 'none' : (`${Math.floor(outcome.status / 100)}xx` as keyof Row['families']);

/** How many events are parked (`n/a` while the audit API has no such endpoint). */
async function parkedEvents(): Promise<string> {
  try {
    const answer = await fetch(`http://${HOST}:${AUDIT_PORT}/api/v1/projections/parked`, {
      headers: { authorization: `Bearer ${AUDIT_TOKEN}` },
    });
    if (answer.status === 404) return 'n/a';
    if (!answer.ok) return `answered ${answer.status}`;
    const body = (await answer.json()) as unknown;
    if (Array.isArray(body)) return String(body.length);
    const paged = body as { data?: unknown[]; meta?: { total?: number }; parked?: unknown[] };
    return String(paged.meta?.total ?? paged.data?.length ?? paged.parked?.length ?? '?');
  } catch {
    return 'no answer';
  }
}

/** A valid service-desk write, which answers 201 only while the read models keep up. */
async function readModelsLive(): Promise<boolean> {
  try {
    const answer = await fetch(`http://${HOST}:${portOf('esm')}/api/v1/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Canary after hostile input', status: 'Open', priority: 'Low' }),
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
    if (answer.status === 429) {
      // Throttled (the write rate limit, or failed authentications from this address): ask again later.
      await new Promise((resolve) =>
        setTimeout(resolve, 1000 * Number(answer.headers.get('retry-after') ?? 1)),
      );
      return readModelsLive();
    }
    return answer.status === 201;
  } catch {
    return false;
  }
}

async function runClass(klass: HostileClass, planned: readonly Planned[], pristine: string): Promise<Row> {
  const work = mkdtempSync(path.join(tmpdir(), 'suite-bench-hostile-'));
  cpSync(pristine, work, { recursive: true });
  let running = await start(work);
  const row: Row = {
    klass,
    sent: 0,
    families: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, none: 0 },
    malformed: 0,
    exits: 0,
    refusedRestarts: 0,
    healthFailures: 0,
    stopped: 0,
    parked: 'n/a',
    rss: { before: residentMegabytes(running.child.pid as number), peak: 0, after: 0 },
    failures: new Map(),
  };
  row.rss.peak = row.rss.before;
  const sampler = setInterval(() => {
    try {
      const rss = residentMegabytes(running.child.pid as number);
      // An exited process, not yet reaped, has no VmRSS.
      if (Number.isFinite(rss)) row.rss.peak = Math.max(row.rss.peak, rss);
    } catch {
      // between a process's exit and its restart
    }
  }, 50);
  const note = (request: HostileRequest, problem: string) => {
    const kind = problem
      .replace(/answered (\d)\d\d in [\d,]+ bytes/g, 'answered $1xx in 8 kB or more')
      .replace(/(answered 5\d\d): .*/, '$1')
      .replace(/ within [\d.]+ s/, '');
    const where = request.fault.replace(/ \([\d,]+-byte body\)/, '');
    const group = row.failures.get(kind) ?? { count: 0, example: `${request.operation} [${where}]` };
    group.count++;
    row.failures.set(kind, group);
  };
  const fresh = async () => {
    if (running.child.exitCode === null) await stop(running.child);
    rmSync(work, { recursive: true, force: true });
    cpSync(pristine, work, { recursive: true });
    running = await start(work);
  };
  const restart = async () => {
    try {
      running = await start(work);
    } catch (error) {
      row.refusedRestarts++;
      note(
        { operation: 'suite start', fault: 'a restart on the same data directory' } as HostileRequest,
        `refused to start: ${String(error)}`,
      );
      rmSync(work, { recursive: true, force: true });
      cpSync(pristine, work, { recursive: true });
      running = await start(work);
    }
  };

  for (const { port, request } of planned) {
    const outcome = await send({ host: HOST, port }, request, { timeoutMs: ANSWER_TIMEOUT_MS });
    row.sent++;
    row.families[family(outcome)]++;
    const problems = problemsWith(request, outcome);
    if (problems.length > 0 && 'status' in outcome && outcome.status < 500) row.malformed++;
    if ('failed' in outcome)
      await Promise.race([running.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
    // A request the process died of is counted as that.
    if (running.child.exitCode === null || 'status' in outcome)
      for (const problem of problems) note(request, problem);
    if (running.child.exitCode !== null) {
      row.exits++;
      note(request, `the process exited with ${running.child.exitCode}: ${lastLine(running.stderr())}`);
      await restart();
      continue;
    }
    // A write that was appended (or failed on the way) may have stopped the read models, and with them
    // every later write: that is counted here, and the class goes on from a fresh copy.
    if (
      request.method !== 'GET' &&
      (!('status' in outcome) || outcome.status < 400 || outcome.status >= 500)
    ) {
      if (!(await readModelsLive())) {
        row.stopped++;
        note(request, 'the read models stopped: a valid service-desk write no longer answers 201');
        // Does the process start again on that log, and serve?
        await stop(running.child);
        try {
          running = await start(work);
          if (!(await readModelsLive())) {
            note(request, 'after a restart the read models still do not take a valid write');
            await fresh();
          }
        } catch (error) {
          row.refusedRestarts++;
          note(request, `suite start then refused to start: ${String(error)}`);
          await fresh();
        }
        continue;
      }
    }
    if ((await answers(port, '/api/v1/health')) !== 200) {
      await Promise.race([running.exited, new Promise((resolve) => setTimeout(resolve, 1000))]);
      if (running.child.exitCode !== null) {
        row.exits++;
        note(request, `the process exited with ${running.child.exitCode}: ${lastLine(running.stderr())}`);
        await restart();
      } else {
        row.healthFailures++;
        note(request, 'its health did not answer 200 afterwards');
      }
    }
  }
  if (!(await readModelsLive())) row.stopped++;
  row.parked = await parkedEvents();
  clearInterval(sampler);
  row.rss.after = residentMegabytes(running.child.pid as number);
  row.rss.peak = Math.max(row.rss.peak, row.rss.after);
  await stop(running.child);
  rmSync(work, { recursive: true, force: true });
  return row;
}

/** The failures of every class as a list, the most frequent first; numbers in requests kept out of code spans. */
function broken(rows: readonly Row[]): string {
  const lines = rows.flatMap((row) =>
    [...row.failures]
      .sort(([, a], [, b]) => b.count - a.count)
      .map(
        ([kind, { count, example }]) =>
          `- ${row.klass}: ${round(count)} × ${kind.replace(/[`|]/g, "'")}; first: \`${example.replace(/`/g, "'")}\``,
      ),
  );
  return lines.length > 0
    ? lines.join('\n')
    : '- nothing: every answer was right, and the process kept serving.';
}

function report(rows: readonly Row[], targets: readonly Target[], seconds: number): string {
  const operations = targets.reduce((sum, target) => sum + target.operations.length, 0);
  const writes = targets.reduce(
    (sum, target) => sum + target.operations.filter((operation) => operation.body).length,
    0,
  );
  const total = (pick: (row: Row) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
  const mb = (value: number) => round(value);
  const body = table(
    [
      'class tried',
      'requests',
      '2xx/3xx',
      '4xx',
      '5xx',
      'no answer',
      'errors outside the shape or >= 8 kB',
      'process exits (restarts refused)',
      'health failures',
      'read models stopped by',
      'parked events',
      'RSS before / peak / after (MB)',
    ],
    [
      ...rows.map((row) => [
        row.klass,
        round(row.sent),
        round(row.families['2xx'] + row.families['3xx']),
        round(row.families['4xx']),
        round(row.families['5xx']),
        round(row.families.none),
        round(row.malformed),
        `${round(row.exits)} (${row.refusedRestarts})`,
        round(row.healthFailures),
        round(row.stopped),
        row.parked,
        `${mb(row.rss.before)} / ${mb(row.rss.peak)} / ${mb(row.rss.after)}`,
      ]),
      [
        '**all**',
        round(total((row) => row.sent)),
        round(total((row) => row.families['2xx'] + row.families['3xx'])),
        round(total((row) => row.families['4xx'])),
        round(total((row) => row.families['5xx'])),
        round(total((row) => row.families.none)),
        round(total((row) => row.malformed)),
        `${round(total((row) => row.exits))} (${round(total((row) => row.refusedRestarts))})`,
        round(total((row) => row.healthFailures)),
        round(total((row) => row.stopped)),
        '',
        `peak ${mb(Math.max(...rows.map((row) => row.rss.peak)))}`,
      ],
    ],
  );
  return `## Hostile input

Reproduce with \`npm run bench:hostile\` (\`bench/hostile.ts\`, needs \`npm run build\`); the property
tests that hold the same line in \`npm test\` are \`test/api/hostile-input.test.ts\` (every endpoint of
every module, in process) and \`test/e2e/hostile-process.test.ts\` (a 50,000-level body to a running
\`suite start\`).

The runner starts the built suite as shipped (\`node dist/cli.js start\`, demo data, API and audit
tokens set, default limits) and sends every class of hostile input to every operation of the
${targets.length} listeners' own OpenAPI descriptions (${operations} operations, ${writes} with a JSON
body): for each write, a valid-looking body generated from its schema with one JSON position at a time
made hostile (nesting 64, 65, 1,000 and 50,000 levels deep as JSON and as JSON text in string fields;
arrays and strings up to and beyond the 100 KiB body limit; odd Unicode; wrong types), plus wrong
content types and encodings, repeated headers and malformed JSON; for each read, hostile query and
path values, repeated headers and a body on GET. Requests are sent one at a time, with valid
credentials, each class on a fresh copy of the seeded data directory; after each request the module's
health is asked, and a process that exits is started again on the same directory (on a fresh copy
when that start is refused). After each write that was not refused with a 4xx, a valid service-desk write must
answer 201, else the read models have stopped (counted, and the class goes on from a fresh copy); after
each class the audit API's \`GET /api/v1/projections/parked\` is asked (n/a where
it does not exist). RSS is the server process's (\`VmRSS\`), sampled every 50 ms.

An answer is right when it is below 500 and, for an error, in the error shape, under 8 kB (details
never echo large or nested input), and 413 for a body over the limit.

${body}

What broke in this run (each kind of failure, how often, and the first request it was seen on):

${broken(rows)}

Run: ${machine()}; ${round(seconds)} s; \`${path.relative(ROOT, CLI)}\` built ${statSync(CLI).mtime.toISOString().slice(0, 16)}Z.
`;
}

/** Replaces (or appends) the marked section of docs/RELIABILITY.md, formatted as the repository's prettier does. */
async function writeDoc(section: string): Promise<void> {
  const config = (await resolveConfig(RELIABILITY_DOC)) ?? {};
  const marked = (
    await format(`<!-- bench:hostile -->\n\n${section}\n<!-- /bench:hostile -->\n`, {
      ...config,
      parser: 'markdown',
    })
  ).trimEnd();
  const existing = existsSync(RELIABILITY_DOC) ? readFileSync(RELIABILITY_DOC, 'utf8') : '# Reliability\n';
  const pattern = /<!-- bench:hostile -->\n[\s\S]*?<!-- \/bench:hostile -->/;
  const text = pattern.test(existing)
    ? existing.replace(pattern, () => marked)
    : `${existing.trimEnd()}\n\n${marked}\n`;
  writeFileSync(RELIABILITY_DOC, text);
}

async function main(): Promise<void> {
  const started = performance.now();
  const pristine = mkdtempSync(path.join(tmpdir(), 'suite-bench-hostile-seed-'));
  try {
    console.log('seeding the demo data...');
    const seeding = await start(pristine, 'demo');
    const targets = await discoverTargets();
    await stop(seeding.child);
    const classes = CLASSES.filter((klass) => ONLY === undefined || klass === ONLY);
    const rows: Row[] = [];
    for (const klass of classes) {
      const planned = plan(klass, targets);
      console.log(`${klass}: ${planned.length} requests...`);
      const row = await runClass(klass, planned, pristine);
      rows.push(row);
      console.log(
        `  ${JSON.stringify({ ...row.families, malformed: row.malformed, exits: row.exits, refusedRestarts: row.refusedRestarts, healthFailures: row.healthFailures, stopped: row.stopped, parked: row.parked, rss: row.rss })}`,
      );
      for (const [kind, { count, example }] of row.failures)
        console.log(`    ${count} x ${kind.slice(0, 200)}; first: ${example}`);
    }
    const section = report(rows, targets, (performance.now() - started) / 1000);
    console.log(`\n${section}`);
    if (WRITE_DOC) await writeDoc(section);
  } finally {
    rmSync(pristine, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
