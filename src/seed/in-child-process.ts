import { fork } from 'node:child_process';
import path from 'node:path';

/** The `suite` command, as this process runs it (built, or from the sources through tsx). */
const CLI = path.join(__dirname, '..', `cli${path.extname(__filename)}`);
/** The end of what a failed seeding wrote on stderr, to say why it failed. */
const KEPT_ERROR_CHARACTERS = 2_000;

/**
 * Writes the demo data into an empty store from a child process (`suite seed`, which also projects it
 * and runs the jobs it makes due), and resolves once that process is done. The memory seeding grows
 * (the heap V8 keeps, what SQLite's allocator keeps: about 250 MB, which neither gives back) goes with
 * the child, so a first start serves as lean as a restart.
 */
export function seedInChildProcess(dataDir: string, seed: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(CLI, ['seed', '--data-dir', dataDir, '--seed', seed], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-KEPT_ERROR_CHARACTERS);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`Writing the demo data failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`),
        );
    });
  });
}
