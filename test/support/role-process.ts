import { spawn, type ChildProcess } from 'node:child_process';
import { showErrors } from './child-logs';
import { SUITE_CLI } from './built-suite';

export interface RoleProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs `suite <role> ...args` from the sources in a child process and waits until `readyUrl` answers. */
export async function startRole(
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<RoleProcess> {
  const child = spawn(process.execPath, [SUITE_CLI, ...args], {
    env: { ...process.env, SUITE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  showErrors(child, `suite ${args.join(' ')}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let attempt = 0; attempt < 400; attempt++) {
    if (child.exitCode !== null) throw new Error(`suite ${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(readyUrl)).ok) return { child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`suite ${args.join(' ')} did not start`);
}
