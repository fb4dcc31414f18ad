import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CLI,
  PORTS,
  ROOT,
  SUITE_URL,
  flags,
  load,
  machine,
  medianFigures,
  numberFlag,
  round,
  startSuiteProcess,
  stop,
  table,
  writeSection,
  type LoadFigures,
} from './support';

/**
 * Sustained POST /api/v1/requests on `suite start` as shipped (default configuration, request logs
 * on), with the Merkle tree over the log, against the same suite without it: the build of the last
 * commit before the tree landed, made once into the temp directory. Runs alternate between the two.
 * Usage: tsx bench/log-tree.ts [--seconds 8] [--runs 5] [--connections 32]
 */
const options = flags();
const SECONDS = numberFlag(options, 'seconds', 8);
const RUNS = numberFlag(options, 'runs', 5);
const CONNECTIONS = numberFlag(options, 'connections', 32);
const TOKEN = 'bench-log-tree-token-0123';
const AUDIT_TOKEN = 'bench-log-tree-audit-0123';
const AUDIT_URL = `http://127.0.0.1:${PORTS.audit}`;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

/** The compiled CLI of the suite as it was before the tree: built once, from the repository's history. */
function cliWithoutTree(): { cli: string; commit: string } {
  const added = git('log', '--diff-filter=A', '--format=%H', '--', 'src/log-proofs/merkle.ts')
    .split('\n')
    .at(-1);
  if (!added) throw new Error('the commit that added the tree is not in this clone');
  const commit = git('rev-parse', '--short', `${added}^`);
  const dir = path.join(tmpdir(), `suite-bench-without-tree-${commit}`);
  const cli = path.join(dir, 'dist/cli.js');
  if (!existsSync(cli)) {
    rmSync(dir, { recursive: true, force: true });
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', dir, commit);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: dir,
        stdio: 'inherit',
      },
    );
  }
  return { cli, commit };
}

/** Resolves once the suite has signed a checkpoint of its whole log: the tree has caught up after the start. */
async function treeCaughtUp(): Promise<void> {
  const audit = async (route: string) =>
    fetch(`${AUDIT_URL}${route}`, { headers: { authorization: `Bearer ${AUDIT_TOKEN}` } });
  const { meta } = (await (await audit('/api/v1/events?limit=1')).json()) as {
    meta: { head_position: number };
  };
  for (;;) {
    const checkpoint = await audit('/api/v1/checkpoint');
    if (checkpoint.ok && Number((await checkpoint.text()).split('\n')[1]) >= meta.head_position) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function writes(cli: string, dataDir: string, { tree }: { tree: boolean }): Promise<LoadFigures> {
  const { child } = await startSuiteProcess(
    dataDir,
    // As shipped: demo data, request logs on; only the write rate limit would answer 429 to a load generator.
    {
      SUITE_SEED: 'demo',
      SUITE_LOG_LEVEL: 'info',
      SUITE_API_TOKEN: TOKEN,
      SUITE_AUDIT_TOKEN: AUDIT_TOKEN,
      SUITE_WRITE_RATE_LIMIT: '0',
    },
    { logs: 'discard', cli },
  );
  try {
    if (tree) await treeCaughtUp();
    return await load({
      url: `${SUITE_URL}/api/v1/requests`,
      method: 'POST',
      duration: SECONDS,
      connections: CONNECTIONS,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ title: 'Benchmark request', status: 'Open', priority: 'Medium', service_id: 1 }),
    });
  } finally {
    await stop(child);
  }
}

async function main(): Promise<void> {
  const without = cliWithoutTree();
  const dirs = {
    with: mkdtempSync(path.join(tmpdir(), 'suite-bench-tree-')),
    without: mkdtempSync(path.join(tmpdir(), 'suite-bench-no-tree-')),
  };
  const runs: { with: LoadFigures[]; without: LoadFigures[] } = { with: [], without: [] };
  try {
    for (let run = 0; run < RUNS; run++) {
      runs.without.push(await writes(without.cli, dirs.without, { tree: false }));
      runs.with.push(await writes(CLI, dirs.with, { tree: true }));
    }
  } finally {
    rmSync(dirs.with, { recursive: true, force: true });
    rmSync(dirs.without, { recursive: true, force: true });
  }
  const withTree = medianFigures(runs.with);
  const withoutTree = medianFigures(runs.without);
  const loss = 1 - withTree.requestsPerSecond / withoutTree.requestsPerSecond;
  const row = (name: string, figures: LoadFigures) => [
    name,
    round(figures.requestsPerSecond),
    String(figures.p50),
    String(figures.p99),
  ];
  const body = `## Writes with the Merkle tree over the log, side by side with the suite without it

Reproduce with \`npm run bench:log-tree\` (\`bench/log-tree.ts\`, needs \`npm run build\`). Sustained
\`POST /api/v1/requests\`, ${CONNECTIONS} connections, ${SECONDS} s per run, medians of ${RUNS} runs, on
\`suite start\` as shipped (demo data, request logs on at \`info\`): this build, which follows the log
into its tree and signs a checkpoint at most once a second, against the build of commit ${without.commit},
the last before the tree, made from this repository's history. Runs alternate; each suite restarts on
its own data directory every run; the load starts once the suite with the tree has signed a checkpoint
of its whole log (the demo data, or the log of the run before). Machine: ${machine()}.

${table(['suite', 'requests/s', 'p50 ms', 'p99 ms'], [row(`without the tree (${without.commit})`, withoutTree), row('with the tree (this build)', withTree)])}

Each run, requests/s: without ${runs.without.map((figures) => round(figures.requestsPerSecond)).join(', ')};
with ${runs.with.map((figures) => round(figures.requestsPerSecond)).join(', ')}.

Throughput lost to the tree: **${(loss * 100).toFixed(1)} %** (target: at most 5 %).`;
  writeSection('log-tree', body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
