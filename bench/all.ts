import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run bench`: every benchmark in sequence, each adding its section to the day's log
 * (docs/benchmarks/<date>.md).
 * Arguments are passed to every benchmark (e.g. `--runs 1`); sizes default to the full ones.
 */
/** Each benchmark: its file, with the arguments that pick what it measures. */
const BENCHMARKS = [
  ['http'],
  ['writes-without', '--without', 'tree'],
  ['writes-without', '--without', 'personal-data'],
  ['event-store'],
  ['rebuild'],
  ['startup'],
  ['reads-scale'],
  ['memory'],
  ['changes'],
];

for (const [name = '', ...args] of BENCHMARKS) {
  console.log(`\n=== bench/${name}.ts ${args.join(' ')}`);
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, `${name}.ts`), ...args, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  console.log(`=== bench/${name}.ts: ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
