import type { Command } from 'commander';
import { checkGeneration, type GenerationCheck, type RecordedGeneration } from '../fpa/verify';
import { config, dataDirOption, quietSuite } from './common';
import { filteredLog } from './log';
import { escaped, jsonText } from './terminal';

/** `suite fpa verify`. */
export function addFpaCommands(program: Command): void {
  program
    .command('fpa')
    .description('financial planning')
    .command('verify')
    .description(
      'recompute every recorded plan generation from its inputs and compare output SHA-256s (exit 1 on a mismatch)',
    )
    .addOption(dataDirOption())
    .option('--json', 'print the checks as JSON')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      const suite = await quietSuite(config(options));
      const checks: GenerationCheck[] = [];
      for await (const event of filteredLog(suite, { module: 'fpa', type: 'PlanGenerated', after: 0 })) {
        checks.push(checkGeneration(event.data as RecordedGeneration, event.position));
      }
      await suite.close();
      if (options.json) console.log(jsonText(checks, 2));
      else {
        for (const check of checks) {
          console.log(
            escaped`${check.result.padEnd(12)} ${check.scenario} at position ${check.position}: ${check.recorded_sha256}`,
          );
        }
        console.log(`${checks.length} generation(s) checked`);
      }
      process.exitCode = checks.some((check) => check.result === 'mismatch') ? 1 : 0;
    });
}
