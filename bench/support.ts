import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { MODULE_IDS } from '../src/module-ids';

export const ROOT = path.resolve(__dirname, '..');
export const BENCHMARKS_DOC = path.join(ROOT, 'docs/BENCHMARKS.md');
/** The compiled CLI the process benchmarks spawn; BENCH_CLI points elsewhere (e.g. a private build). */
export const CLI = process.env.BENCH_CLI ?? path.join(ROOT, 'dist/cli.js');
/** The first of the benchmarks' 100 ports (18500 unless BENCH_PORT_BASE says otherwise). */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 18500);
/**
 * The benchmarks' ports: the service desk, the other modules after it, then the rest; a second suite
 * run beside the first (`SECOND_SUITE`) takes the same listeners 40 ports further.
 */
export const PORTS = {
  suite: PORT_BASE,
  audit: PORT_BASE + 20,
  metrics: PORT_BASE + 21,
  console: PORT_BASE + 22,
  ceiling: PORT_BASE + 30,
} as const;
export const SECOND_SUITE = 40;
export const SUITE_URL = `http://127.0.0.1:${PORTS.suite}`;

/** The environment of a benchmarked `suite start`: every listener on a benchmark port, `offset` further. */
export function suiteEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}, offset = 0): NodeJS.ProcessEnv {
  const ports = Object.fromEntries(
    MODULE_IDS.map((module, index) => [
      `SUITE_${module.toUpperCase()}_PORT`,
      String(PORTS.suite + offset + index),
    ]),
  );
  return {
    ...process.env,
    ...ports,
    SUITE_AUDIT_PORT: String(PORTS.audit + offset),
    SUITE_METRICS_PORT: String(PORTS.metrics + offset),
    SUITE_CONSOLE_PORT: String(PORTS.console + offset),
    SUITE_DATA_DIR: dataDir,
    SUITE_SEED: 'none',
    SUITE_LOG_LEVEL: 'error',
    ...extra,
  };
}

/**
 * `node dist/cli.js start` on `dataDir`, its listeners `offset` ports further; resolves once the service
 * desk's health answers. Its logs (standard output) are shown, discarded when they are request logs
 * that would flood the console, or written to a file (an open file descriptor), as a log collector would.
 */
export async function startSuiteProcess(
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
  {
    logs = 'show',
    cli = CLI,
    offset = 0,
  }: { logs?: 'show' | 'discard' | number; cli?: string; offset?: number } = {},
): Promise<{ child: ChildProcess; startupSeconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'start'], {
    env: suiteEnv(dataDir, extra, offset),
    stdio: ['inherit', logs === 'show' ? 'inherit' : logs === 'discard' ? 'ignore' : logs, 'inherit'],
  });
  const exited = new Promise<never>((_resolve, reject) =>
    child.once('exit', (code) => reject(new Error(`${CLI} start exited with ${code}`))),
  );
  try {
    const health = `http://127.0.0.1:${PORTS.suite + offset}/api/v1/health`;
    await Promise.race([waitForHealth(health, 18_000, 10), exited]);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return { child, startupSeconds: (performance.now() - started) / 1000 };
}

/** A 200 answer of the suite, as the ceiling replays it. */
export interface RecordedAnswer {
  body: Buffer;
  requestId: string;
}

export async function recordAnswer(url: string): Promise<RecordedAnswer> {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
  return {
    body: Buffer.from(await answer.arrayBuffer()),
    requestId: answer.headers.get('x-request-id') ?? '',
  };
}

/** The ceiling (bench/ceiling.ts): a bare node:http server replaying `answer` from memory on PORTS.ceiling. */
export async function startCeiling(
  answer: RecordedAnswer,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'suite-bench-ceiling-'));
  const bodyFile = path.join(dir, 'body');
  writeFileSync(bodyFile, answer.body);
  const child = fork(
    path.join(__dirname, 'ceiling.ts'),
    [bodyFile, String(PORTS.ceiling), answer.requestId],
    {
      execArgv: ['--import', 'tsx'],
    },
  );
  await new Promise((resolve) => child.once('message', resolve));
  return {
    url: `http://127.0.0.1:${PORTS.ceiling}`,
    pid: child.pid as number,
    async stop() {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of a process, in MB (Linux). */
export function residentMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kilobytes / 1024;
}

/** CPU time a process has used, all its threads, in milliseconds (Linux: user and system clock ticks of 10 ms). */
export function cpuMilliseconds(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] as string).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `--name value` flags; a flag without a value reads as 'true'. */
export function flags(argv = process.argv.slice(2)): Map<string, string> {
  const found = new Map<string, string>();
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (!arg.startsWith('--')) continue;
    const next = argv[index + 1];
    const hasValue = next !== undefined && !next.startsWith('--');
    found.set(arg.slice(2), hasValue ? next : 'true');
    if (hasValue) index++;
  }
  return found;
}

export function numberFlag(options: Map<string, string>, name: string, fallback: number): number {
  const value = options.get(name);
  if (value === undefined) return fallback;
  const parsed = Number(value.replace(/_/g, ''));
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`--${name} must be a positive number`);
  return parsed;
}

/** `--sizes 10000,100000` */
export function sizesFlag(options: Map<string, string>, fallback: number[]): number[] {
  const value = options.get('sizes');
  return value ? value.split(',').map((size) => Number(size.replace(/_/g, ''))) : fallback;
}

export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export const round = (value: number, digits = 0): string =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const ratio = (value: number, reference: number): string => `${(value / reference).toFixed(2)}x`;

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Where and when a figure was measured. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return (
    `${os.cpus().length} cores (${cpu.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GB, ` +
    `shared with the load generator; Node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z`
  );
}

const SECTION_ORDER = [
  'http',
  'log-tree',
  'personal-data',
  'event-store',
  'rebuild',
  'startup',
  'reads-scale',
  'memory',
];
const DOC_HEADER = `# Benchmarks

\`npm run bench\` runs every benchmark below in sequence (\`bench/all.ts\`); each section states the command
that reproduces it alone. Benchmarks run on demand, never in \`npm test\`. Unless a section says
otherwise: embedded profile, medians of 3 runs, and every ratio is measured in one run, side by side,
alternating the two contenders so that both see the same machine state.
`;

/**
 * Replaces (or adds, in the documented order) one benchmark's section of docs/BENCHMARKS.md; what
 * stands before the first section (the summary of where the targets stand) is kept.
 */
export function writeSection(name: string, body: string): void {
  const existing = existsSync(BENCHMARKS_DOC) ? readFileSync(BENCHMARKS_DOC, 'utf8') : '';
  const firstSection = existing.indexOf('<!-- bench:');
  const preamble = firstSection > 0 ? existing.slice(0, firstSection) : `${DOC_HEADER}\n`;
  const sections = new Map<string, string>();
  for (const match of existing.matchAll(/<!-- bench:([\w-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) {
    sections.set(match[1] as string, match[2] as string);
  }
  sections.set(name, `${body.trim()}\n`);
  const ordered = [...sections.keys()].sort(
    (a, b) => (SECTION_ORDER.indexOf(a) >>> 0) - (SECTION_ORDER.indexOf(b) >>> 0),
  );
  const text = ordered.map((key) => `<!-- bench:${key} -->\n${sections.get(key)}<!-- /bench:${key} -->`);
  writeFileSync(BENCHMARKS_DOC, `${preamble}${text.join('\n\n')}\n`);
}

export async function waitForHealth(url: string, attempts = 600, pauseMs = 100): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new Error(`${url} did not answer`);
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, errors and timeouts. */
  failed: number;
  /** Requests answered. */
  answered: number;
}

/** One autocannon run; any non-2xx answer, error or timeout fails the benchmark unless tolerated. */
export function load(options: autocannon.Options, { tolerateFailures = false } = {}): Promise<LoadFigures> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: 8, connections: 32, ...options }, (error, result) => {
      if (error) return reject(error);
      const failed = result.non2xx + result.errors + result.timeouts;
      if (failed > 0 && !tolerateFailures) {
        return reject(new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      }
      resolve({
        // A run of a set amount may be shorter than the one-second samples the average is made of.
        requestsPerSecond: options.amount
          ? (result.requests.total * 1000) / (result.finish.getTime() - result.start.getTime())
          : result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        failed,
        answered: result.requests.total,
      });
    });
  });
}

export function medianFigures(runs: readonly LoadFigures[]): LoadFigures {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    failed: Math.max(...runs.map((run) => run.failed)),
    answered: runs.reduce((sum, run) => sum + run.answered, 0),
  };
}
