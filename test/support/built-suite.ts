import path from 'node:path';

/**
 * The sources compiled once per jest run (by `test/global-setup.ts`), for the tests that start the
 * suite as a process: running each child through tsx cost about four times the CPU of compiled code.
 * It mirrors `dist/`'s depth, so paths the code resolves from its own file (the console's build) hold.
 */
export const BUILT_ROOT = path.resolve(__dirname, '../../.test-build');

/** The `suite` command as the tests run it: `node <SUITE_CLI> <args>`. */
export const SUITE_CLI = path.join(BUILT_ROOT, 'cli.js');
