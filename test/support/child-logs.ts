import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** pino's number for the error level. */
const ERROR = 50;

/**
 * Shows in the test output what a suite child process logs as an error (pino writes to stdout), so
 * that a failure in CI says what the process ran into. Request logs are left out: a 503 answered while
 * a reader waits for the projector is expected.
 */
export function showErrors(child: ChildProcess, name: string): void {
  if (!child.stdout) return;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line) as { level: number; msg: string };
    if (entry.level >= ERROR && entry.msg !== 'request completed')
      process.stderr.write(`[${name}] ${line}\n`);
  });
}
