import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const ROOT = path.resolve(__dirname, '..');
const SUITE_PORT = 18081;
const CEILING_PORT = 18181;
const TOKEN = 'bench-token';
const DURATION_SECONDS = 8;
const RUNS = 3;

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

async function waitForHealth(url: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

function load(options: autocannon.Options): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: DURATION_SECONDS, connections: 32, ...options }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) {
        return reject(new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      }
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
      });
    });
  });
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function medianFigures(runs: Figures[]): Figures {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * GET /api/v1/requests?limit=50 against a bare node:http server serving the same bytes (the ceiling),
 * then sustained POST /api/v1/requests. Writes docs/BENCHMARKS.md.
 */
async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'suite-bench-'));
  const suite = spawn(process.execPath, [path.join(ROOT, 'dist/cli.js'), 'start'], {
    env: {
      ...process.env,
      SUITE_DATA_DIR: dataDir,
      SUITE_ESM_PORT: String(SUITE_PORT),
      SUITE_API_TOKEN: TOKEN,
      SUITE_LOG_LEVEL: 'warn',
    },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${SUITE_PORT}`;
  try {
    await waitForHealth(`${base}/api/v1/health`);
    const listUrl = `${base}/api/v1/requests?limit=50`;
    const bodyFile = path.join(dataDir, 'list.json');
    const listBody = Buffer.from(await (await fetch(listUrl)).arrayBuffer());
    writeFileSync(bodyFile, listBody);
    const ceiling = fork(path.join(__dirname, 'ceiling.ts'), [bodyFile, String(CEILING_PORT)], {
      execArgv: ['--import', 'tsx'],
    });
    await new Promise((resolve) => ceiling.once('message', resolve));

    const suiteRuns: Figures[] = [];
    const ceilingRuns: Figures[] = [];
    for (let run = 0; run < RUNS; run++) {
      suiteRuns.push(await load({ url: listUrl }));
      ceilingRuns.push(await load({ url: `http://127.0.0.1:${CEILING_PORT}/api/v1/requests?limit=50` }));
    }
    await stop(ceiling);

    const postRuns: Figures[] = [];
    for (let run = 0; run < RUNS; run++) {
      postRuns.push(
        await load({
          url: `${base}/api/v1/requests`,
          method: 'POST',
          connections: 64,
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
    report(medianFigures(suiteRuns), medianFigures(ceilingRuns), medianFigures(postRuns), listBody.length);
  } finally {
    await stop(suite);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(list: Figures, ceiling: Figures, post: Figures, bytes: number): void {
  const row = (name: string, figures: Figures) =>
    `| ${name} | ${Math.round(figures.requestsPerSecond)} | ${figures.p50} | ${figures.p99} |`;
  const ratio = list.requestsPerSecond / ceiling.requestsPerSecond;
  const text = `# Benchmarks

Reproduce with \`npm run build && npm run bench\` (\`bench/http.ts\`). Embedded profile, one process,
demo data seeded, logging at \`warn\`. Load from autocannon in the same machine (2 cores shared by the
server and the load generator), ${DURATION_SECONDS} s per run, medians of ${RUNS} runs; list and
ceiling runs alternate so both see the same machine state.

## GET /api/v1/requests?limit=50 against the ceiling

The ceiling is a bare \`node:http\` server (\`bench/ceiling.ts\`) answering with the identical
${bytes} bytes from memory. 32 connections.

| server | requests/s | p50 ms | p99 ms |
|---|---|---|---|
${row('suite', list)}
${row('ceiling (node:http, same bytes)', ceiling)}

Ratio suite / ceiling: **${ratio.toFixed(2)}x** (target >= 0.7x).

## POST /api/v1/requests, sustained

64 connections, each write durable (WAL, \`synchronous=FULL\`, group commit) and projected before the
201 (read-your-writes).

| server | requests/s | p50 ms | p99 ms |
|---|---|---|---|
${row('suite', post)}

Targets: >= 3,000 requests/s, p99 < 25 ms. Writes are bound by the fsync of each group commit, which
blocks the event loop (better-sqlite3 is synchronous): one client alone sees about 2 ms per write, and
throughput grows with concurrency as more writes share a commit.

Measured on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}.
`;
  writeFileSync(path.join(ROOT, 'docs/BENCHMARKS.md'), text);
  console.log(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
