import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { copyLog, positionAt } from '../audit/replay';
import { config, quietSuite } from './common';
import { progressBar } from './progress';

/** `suite replay`. */
export function addReplayCommand(program: Command): void {
  program
    .command('replay')
    .description('write point-in-time read models (and the log up to then) into an empty data directory')
    .requiredOption('--until <position|time>', 'a global position, or an ISO 8601 time')
    .requiredOption('--data-dir <dir>', 'the new data directory to write')
    .option('--from <dir>', 'the data directory holding the log (default: SUITE_DATA_DIR)')
    .action(async (options: { until: string; dataDir: string; from?: string }) => {
      const source = config({ dataDir: options.from });
      const target = config({ dataDir: options.dataDir });
      if (source.dataDir === target.dataDir)
        throw new Error('--data-dir must be another directory than the log');
      if (existsSync(path.join(target.dataDir, 'events.db')))
        throw new Error(`${target.dataDir} already holds a store`);
      const from = await quietSuite(source);
      const until = /^\d+$/.test(options.until)
        ? Number(options.until)
        : await positionAt(from.storedEvents, options.until);
      const to = await quietSuite(target);
      const bar = progressBar('Copying the log');
      bar.start(until, 0);
      await copyLog(from.storedEvents, to.storedEvents, until, (position) => bar.update(position));
      bar.stop();
      // The copy is sealed as the log is: its personal data reads with the keys there are (none of the erased).
      await to.subjectKeys.keep(await from.subjectKeys.allKeys());
      await to.runtime.start();
      console.log(`Read models as of position ${until} written to ${target.dataDir}; serve them with:`);
      console.log(`  suite start --data-dir ${target.dataDir} --read-only`);
      await to.close();
      await from.close();
    });
}
