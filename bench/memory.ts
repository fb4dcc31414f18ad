import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MODULE_IDS } from '../src/modules/ids';
import { DEFAULT_CACHE_MB } from '../src/projections/cache-budget';
import { PORTS, flags, machine, numberFlag, residentMegabytes, round, table } from './support';
import { startSuiteProcess, stop, writeSection } from './support';

/**
 * Resident memory of `suite start` as shipped (default configuration, request logs on, the demo data)
 * through distinct anonymous page requests spread over every list of every module, once per cache
 * budget. Usage: tsx bench/memory.ts [--requests 10000] [--concurrency 8] [--cache-mb default,1024]
 */
const options = flags();
const REQUESTS = numberFlag(options, 'requests', 10_000);
const CONCURRENCY = numberFlag(options, 'concurrency', 8);
/** `default`: SUITE_CACHE_MB unset, as shipped. */
const BUDGETS = (options.get('cache-mb') ?? 'default,1024').split(',');
const LIMIT = 200;
const SAMPLE_MS = 50;
/** How long the process stays idle before its memory is read after start and after the requests. */
const IDLE_MS = 5000;

interface Run {
  budget: string;
  afterStart: number;
  peak: number;
  afterRequests: number;
  seconds: number;
  statuses: Map<number, number>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every list of every module, as each module's `/api/` index names them. */
async function lists(): Promise<string[]> {
  const found: string[] = [];
  for (const [index] of MODULE_IDS.entries()) {
    const base = `http://127.0.0.1:${PORTS.suite + index}`;
    const api = (await (await fetch(`${base}/api/`)).json()) as { resources: { list: string }[] };
    found.push(...api.resources.map((resource) => `${base}${resource.list}`));
  }
  return found;
}

/** Request `n` asks list `n mod lists` at offset `n div lists`: no two requests alike. */
async function requestPages(urls: readonly string[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    for (let n = next++; n < REQUESTS; n = next++) {
      const url = `${urls[n % urls.length]}?limit=${LIMIT}&offset=${Math.floor(n / urls.length)}`;
      const answer = await fetch(url);
      await answer.arrayBuffer();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return statuses;
}

async function measure(dataDir: string, budget: string): Promise<Run> {
  const env = budget === 'default' ? {} : { SUITE_CACHE_MB: budget };
  const { child } = await startSuiteProcess(
    dataDir,
    { SUITE_SEED: 'demo', SUITE_LOG_LEVEL: 'info', ...env },
    { logs: 'discard' },
  );
  const rss = () => residentMegabytes(child.pid as number);
  try {
    await pause(IDLE_MS);
    const afterStart = rss();
    const urls = await lists();
    let peak = afterStart;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), SAMPLE_MS);
    const started = performance.now();
    const statuses = await requestPages(urls).finally(() => clearInterval(sampler));
    const seconds = (performance.now() - started) / 1000;
    await pause(IDLE_MS);
    const afterRequests = rss();
    peak = Math.max(peak, afterRequests);
    console.log(
      `SUITE_CACHE_MB=${budget}: ${urls.length} lists, RSS ${round(afterStart)} MB after start, ` +
        `peak ${round(peak)} MB, ${round(afterRequests)} MB after the requests (${round(seconds, 1)} s)`,
    );
    return { budget, afterStart, peak, afterRequests, seconds, statuses };
  } finally {
    await stop(child);
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'suite-bench-memory-'));
  try {
    // The first run is the first start, which writes the demo data; the others restart on it.
    const runs: Run[] = [];
    for (const budget of BUDGETS) runs.push(await measure(dataDir, budget));
    report(runs);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(runs: readonly Run[]): void {
  const answers = (statuses: Map<number, number>) =>
    [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${round(count)} x ${status}`)
      .join(', ');
  const rows = runs.map((run) => [
    run.budget === 'default' ? `as shipped (${DEFAULT_CACHE_MB})` : run.budget,
    round(run.afterStart),
    `**${round(run.peak)}**`,
    round(run.afterRequests),
    round(REQUESTS / run.seconds),
    answers(run.statuses),
  ]);
  const header = [
    'SUITE_CACHE_MB',
    'RSS after start MB',
    'peak RSS MB',
    'RSS after the requests MB',
    'requests/s',
    'answers',
  ];
  const body = `## Resident memory through distinct anonymous page requests

Reproduce with \`npm run bench:memory\` (\`bench/memory.ts\`, needs \`npm run build\`). One \`suite start\`
process in its default configuration (request logs at \`info\`, discarded; no token: every request is
anonymous): the first row is the first start on an empty data directory, which writes the demo data (from
a child process), the others restart on it. Then ${round(REQUESTS)} requests, ${CONCURRENCY} at a time,
\`GET <list>?limit=${LIMIT}&offset=N\` over every list of every module as each module's \`/api/\` index names
them, request \`n\` to list \`n mod lists\` at offset \`n div lists\`: no two alike, so none is answered from
the cache. RSS is read from \`/proc/<pid>/status\` ${IDLE_MS / 1000} s after start, every ${SAMPLE_MS} ms during the
requests (peak), and ${IDLE_MS / 1000} s after them. The lists that need credentials (the contract lifecycle's)
are refused; the market has none. Machine: ${machine()}.

${table(header, rows)}

Target: peak RSS < 300 MB as shipped. The cache budget (\`SUITE_CACHE_MB\`) bounds the pages, totals and
documents the read store keeps, counted in bytes across all collections; a larger budget keeps more of
them (up to 512 pages per collection).`;
  writeSection('memory', body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
