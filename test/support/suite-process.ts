import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { showErrors } from './child-logs';
import { MODULE_IDS } from '../../src/modules/ids';
import { SUITE_CLI } from './built-suite';

export interface SuiteProcess {
  child: ChildProcess;
  base: string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

/** Every listener of the suite on `port` and the ports after it, clear of a suite running on the defaults. */
function portsFrom(port: number): Record<string, string> {
  const variables = [
    ...MODULE_IDS.map((module) => `SUITE_${module.toUpperCase()}_PORT`),
    'SUITE_AUDIT_PORT',
    'SUITE_METRICS_PORT',
    'SUITE_CONSOLE_PORT',
  ];
  return Object.fromEntries(variables.map((variable, index) => [variable, String(port + index)]));
}

/**
 * Runs `suite start` (compiled for the tests) in a child process, its service desk on `port` and its other
 * listeners on the ports after it, and waits (up to `waitMs`) until the service desk answers.
 */
export async function startSuiteProcess(
  env: Record<string, string>,
  port: number,
  { waitMs = 15_000 } = {},
): Promise<SuiteProcess> {
  const child = spawn(process.execPath, [SUITE_CLI, 'start'], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn', ...portsFrom(port), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  showErrors(child, 'suite start');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + waitMs; Date.now() < until;) {
    if (child.exitCode !== null) throw new Error(`suite exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return { child, base, exited };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error('suite did not start');
}

/** Stops a suite process with SIGTERM, as an operator would; answers its exit code (0 for a clean stop). */
export async function stopSuiteProcess(suite: SuiteProcess): Promise<number | null> {
  suite.child.kill('SIGTERM');
  return suite.exited;
}

/**
 * Runs `suite <args>` (compiled for the tests) to its end, with `env` (logs at warn): its status and output
 * (up to 256 MB of it: the whole demo log as NDJSON is about 40).
 */
export function runSuiteCli(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, [SUITE_CLI, ...args], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}
