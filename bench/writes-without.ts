import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CLI,
  PORTS,
  ROOT,
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
  startSuiteProcess,
  stop,
  table,
  writeSection,
  type LoadFigures,
} from './support';

/**
 * Sustained POST /api/v1/requests on `suite start` as shipped (default configuration, request logs
 * on), against the same suite without one of its features, built once into the temp directory: the
 * last commit before the feature landed (the tree), or this commit with the feature taken out of it
 * (personal data: the seal is one layer of the store stack, and 90 commits have landed since it did).
 * Runs alternate between the two.
 * Usage: tsx bench/writes-without.ts --without tree|personal-data [--seconds 8] [--runs 5] [--connections 32]
 */
type Without =
  /** The commit before the one that added this file. */
  | { before: string }
  /** This commit, with `from` replaced by `to` in `file` (each found exactly once). */
  | { takenOut: { file: string; from: string; to: string } };

const FEATURES: Record<
  string,
  { without: Without; section: string; title: string; what: string; lost: string; target: string }
> = {
  tree: {
    without: { before: 'src/log-proofs/merkle.ts' },
    section: 'log-tree',
    title: 'Writes with the Merkle tree over the log, side by side with the suite without it',
    what: 'which follows the log into its tree and signs a checkpoint at most once a second',
    lost: 'Throughput lost to the tree',
    target: 'target: at most 5 %',
  },
  'personal-data': {
    without: {
      takenOut: {
        file: 'src/main.ts',
        from: 'withPersonalData(storedEvents, catalog, subjectKeys)',
        to: 'storedEvents',
      },
    },
    section: 'personal-data',
    title: 'Writes with personal data sealed, side by side with the same suite without the seal',
    what: "which seals the request's form answers under its data subject's key (AES-256-GCM) before appending them",
    lost: 'Throughput lost to sealing',
    target: 'target: CPU per request at most 1.15x that without it',
  },
};

const options = flags();
const featureName = options.get('without') ?? '';
const feature =
  FEATURES[featureName] ??
  (() => {
    throw new Error(`--without ${Object.keys(FEATURES).join('|')}`);
  })();
const SECONDS = numberFlag(options, 'seconds', 8);
const RUNS = numberFlag(options, 'runs', 5);
const CONNECTIONS = numberFlag(options, 'connections', 32);
const TOKEN = 'bench-log-tree-token-0123';
const AUDIT_TOKEN = 'bench-log-tree-audit-0123';
const AUDIT_URL = `http://127.0.0.1:${PORTS.audit}`;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

/** The compiled CLI of the suite without the feature (built once), and what it was built from. */
function cliWithout(): { cli: string; builtFrom: string } {
  const { without } = feature;
  let commit: string;
  let builtFrom: string;
  if ('before' in without) {
    const added = git('log', '--diff-filter=A', '--format=%H', '--', without.before).split('\n').at(-1);
    if (!added) throw new Error(`the commit that added ${without.before} is not in this clone`);
    commit = git('rev-parse', '--short', `${added}^`);
    builtFrom = `the build of commit ${commit}, the last before it`;
  } else {
    commit = git('rev-parse', '--short', 'HEAD');
    builtFrom = `the build of this commit (${commit}) with \`${without.takenOut.from}\` replaced by \`${without.takenOut.to}\` in ${without.takenOut.file}`;
  }
  const dir = path.join(tmpdir(), `suite-bench-${featureName}-without-${commit}`);
  const cli = path.join(dir, 'dist/cli.js');
  if (!existsSync(cli)) {
    rmSync(dir, { recursive: true, force: true });
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', dir, commit);
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    if ('takenOut' in without) takeOut(dir, without.takenOut);
    execFileSync(
      process.execPath,
      // What the feature took out leaves imports unused.
      [
        path.join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.build.json',
        '--noUnusedLocals',
        'false',
      ],
      { cwd: dir, stdio: 'inherit' },
    );
  }
  return { cli, builtFrom };
}

function takeOut(dir: string, { file, from, to }: { file: string; from: string; to: string }): void {
  const source = readFileSync(path.join(dir, file), 'utf8');
  if (source.split(from).length !== 2) throw new Error(`${file} does not hold \`${from}\` exactly once`);
  writeFileSync(path.join(dir, file), source.replace(from, to));
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

const REQUEST = { title: 'Benchmark request', status: 'Open', priority: 'Medium', service_id: 1 };
/** A request with form answers about a person: what the seal works on. */
const REQUEST_ABOUT_A_PERSON = {
  ...REQUEST,
  form_data: JSON.stringify({
    employee: 'Ana Silva',
    email: 'ana.silva@example.com',
    phone: '+44 20 7946 0000',
  }),
};

/** A run's figures, and the server's CPU time per answered request in microseconds (all its threads). */
type Measured = LoadFigures & { cpuMicros: number };

async function writes(cli: string, dataDir: string, { tree }: { tree: boolean }): Promise<Measured> {
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
    const pid = child.pid as number;
    const before = cpuMilliseconds(pid);
    const figures = await load({
      url: `${SUITE_URL}/api/v1/requests`,
      method: 'POST',
      duration: SECONDS,
      connections: CONNECTIONS,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(featureName === 'personal-data' ? REQUEST_ABOUT_A_PERSON : REQUEST),
    });
    return { ...figures, cpuMicros: ((cpuMilliseconds(pid) - before) * 1000) / figures.answered };
  } finally {
    await stop(child);
  }
}

async function main(): Promise<void> {
  const without = cliWithout();
  const dirs = {
    with: mkdtempSync(path.join(tmpdir(), 'suite-bench-with-')),
    without: mkdtempSync(path.join(tmpdir(), 'suite-bench-without-')),
  };
  const runs: { with: Measured[]; without: Measured[] } = { with: [], without: [] };
  try {
    for (let run = 0; run < RUNS; run++) {
      // The build before the tree has none to wait for; every later one does.
      runs.without.push(await writes(without.cli, dirs.without, { tree: featureName !== 'tree' }));
      runs.with.push(await writes(CLI, dirs.with, { tree: true }));
    }
  } finally {
    rmSync(dirs.with, { recursive: true, force: true });
    rmSync(dirs.without, { recursive: true, force: true });
  }
  const medians = (figures: Measured[]) => ({
    ...medianFigures(figures),
    cpuMicros: median(figures.map(({ cpuMicros }) => cpuMicros)),
  });
  const withFeature = medians(runs.with);
  const withoutFeature = medians(runs.without);
  const loss = 1 - withFeature.requestsPerSecond / withoutFeature.requestsPerSecond;
  const row = (name: string, figures: Measured) => [
    name,
    round(figures.requestsPerSecond),
    round(figures.cpuMicros),
    String(figures.p50),
    String(figures.p99),
  ];
  const perRun = (figures: Measured[]) =>
    figures
      .map(({ requestsPerSecond, cpuMicros }) => `${round(requestsPerSecond)} (${round(cpuMicros)} µs)`)
      .join(', ');
  const body = `## ${feature.title}

Reproduce with \`npm run bench:${feature.section}\` (\`bench/writes-without.ts --without ${featureName}\`, needs
\`npm run build\`). Sustained \`POST /api/v1/requests\`${featureName === 'personal-data' ? ' with form answers naming a person' : ''},
${CONNECTIONS} connections, ${SECONDS} s per run, medians of ${RUNS} runs, on \`suite start\` as shipped
(demo data, request logs on at \`info\`): this build, ${feature.what}, against ${without.builtFrom}. Runs alternate; each suite
restarts on its own data directory every run; the load starts once the suite has signed a checkpoint of
its whole log (the demo data, or the log of the run before). CPU per request: the server process's user and
system time over the run (\`/proc/<pid>/stat\`, every thread), by the requests answered; throughput on a
machine shared with the load generator moves more between runs than it does. Machine: ${machine()}.

${table(['suite', 'requests/s', 'CPU µs/request', 'p50 ms', 'p99 ms'], [row('without it', withoutFeature), row('this build', withFeature)])}

Each run, requests/s (CPU per request): without it ${perRun(runs.without)}; this build ${perRun(runs.with)}.

${feature.lost}: **${(loss * 100).toFixed(1)} %**; CPU per request ${ratio(withFeature.cpuMicros, withoutFeature.cpuMicros)} that without it (${feature.target}).`;
  writeSection(feature.section, body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
