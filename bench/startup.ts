import {
  SUITE_URL,
  flags,
  load,
  machine,
  median,
  numberFlag,
  residentMegabytes,
  round,
  sizesFlag,
} from './support';
import { startSuiteProcess, stop, table, writeSection } from './support';
import { serviceDeskLog } from './service-desk-log';

/**
 * Start-up time of `node dist/cli.js start` (SUITE_SEED=none) on a data directory holding N events,
 * until the service desk's health answers, and its resident memory after start and after a short read
 * load. Usage: tsx bench/startup.ts [--sizes 10000,100000,1000000] [--runs 3] [--read-seconds 3]
 */
const options = flags();
const SIZES = sizesFlag(options, [10_000, 100_000, 1_000_000]);
const RUNS = numberFlag(options, 'runs', 3);
const READ_SECONDS = numberFlag(options, 'read-seconds', 3);

interface Point {
  events: number;
  /** The first start on the directory (after it was built, or after a rebuild), not in the medians. */
  firstStartSeconds: number;
  startupSeconds: number;
  rssAfterStart: number;
  rssAfterReads: number;
}

async function readLoad(requests: number): Promise<void> {
  const paths = [
    '/api/v1/requests?limit=50',
    `/api/v1/requests/${Math.ceil(requests / 2)}`,
    '/api/v1/requests?q=laptop&limit=50',
  ];
  for (const path of paths) {
    await load({ url: `${SUITE_URL}${path}`, duration: READ_SECONDS, connections: 8 });
  }
}

async function measure(size: number): Promise<Point> {
  const log = await serviceDeskLog({ events: size });
  const first = await startSuiteProcess(log.dataDir);
  await stop(first.child);
  console.log(`${log.events} events, first start: ${first.startupSeconds.toFixed(2)} s`);
  const runs: Omit<Point, 'events' | 'firstStartSeconds'>[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { child, startupSeconds } = await startSuiteProcess(log.dataDir);
    try {
      const rssAfterStart = residentMegabytes(child.pid as number);
      await readLoad(log.requests);
      runs.push({ startupSeconds, rssAfterStart, rssAfterReads: residentMegabytes(child.pid as number) });
    } finally {
      await stop(child);
    }
    const last = runs[runs.length - 1] as Omit<Point, 'events' | 'firstStartSeconds'>;
    console.log(
      `${log.events} events, run ${run + 1}: start-up ${last.startupSeconds.toFixed(2)} s, ` +
        `RSS ${last.rssAfterStart.toFixed(0)} MB, after reads ${last.rssAfterReads.toFixed(0)} MB`,
    );
  }
  return {
    events: log.events,
    firstStartSeconds: first.startupSeconds,
    startupSeconds: median(runs.map((run) => run.startupSeconds)),
    rssAfterStart: median(runs.map((run) => run.rssAfterStart)),
    rssAfterReads: median(runs.map((run) => run.rssAfterReads)),
  };
}

async function main(): Promise<void> {
  const points: Point[] = [];
  for (const size of SIZES) points.push(await measure(size));
  const first = points[0] as Point;
  const growth = (value: number, base: number) => `${(value / base).toFixed(2)}x`;
  const rows = points.map((point) => [
    round(point.events),
    `${round(point.events / first.events, 1)}x`,
    round(point.firstStartSeconds, 2),
    round(point.startupSeconds, 2),
    growth(point.startupSeconds, first.startupSeconds),
    round(point.rssAfterStart),
    growth(point.rssAfterStart, first.rssAfterStart),
    round(point.rssAfterReads),
    growth(point.rssAfterReads, first.rssAfterReads),
  ]);
  const header = [
    'events',
    'log growth',
    'first start s',
    'start-up s',
    'growth',
    'RSS after start MB',
    'growth',
    'RSS after reads MB',
    'growth',
  ];
  const body = `## Start-up time and resident memory against the size of the log

Reproduce with \`npm run bench:startup -- --sizes ${SIZES.join(',')}\` (\`bench/startup.ts\`, needs
\`npm run build\`; the logs are generated as for the rebuild benchmark, projected, and cached). Start-up
is the time from spawning \`node dist/cli.js start\` (\`SUITE_SEED=none\`,
read models already caught up, as after a restart) until \`GET /api/v1/health\` answers; RSS is read
from \`/proc/<pid>/status\` right after, and again after ${READ_SECONDS} s each of GET list, by id and list
with \`q\` (8 connections). The first start on a directory (after the log was built or rebuilt: cold
caches, job triggers to catch up) is shown apart; the other figures are medians of ${RUNS} restarts
after it, growth against the smallest log. Machine: ${machine()}.

${table(header, rows)}

Targets at 1M events: start-up < 3 s, RSS < 300 MB.`;
  writeSection('startup', body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
