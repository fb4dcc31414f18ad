import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread running `entry`, the sibling module of `from` (a thread's file beside its client's).
 * The built `dist` runs as it is; sources (tests, benchmarks) load through tsx's require hook.
 */
export function startThread(from: string, entry: string, workerData: unknown): Worker {
  const file = path.join(path.dirname(from), `${entry}${path.extname(from)}`);
  return file.endsWith('.ts')
    ? new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true, workerData })
    : new Worker(file, { workerData });
}
