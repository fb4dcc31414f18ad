import type { Command } from 'commander';
import { listParkedEvents, type ParkedEvent } from '../projections/parked-events';
import type { ReadStore } from '../projections/read-store';
import { config, dataDirOption, quietSuite, wholeNumber } from './common';
import { progressBar } from './progress';
import { jsonText, escaped } from './terminal';

const PAGE = 1_000;

async function everyParkedEvent(readStore: ReadStore): Promise<ParkedEvent[]> {
  const all: ParkedEvent[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await listParkedEvents(readStore, { limit: PAGE, offset });
    all.push(...page.items);
    if (offset + PAGE >= page.total) return all;
  }
}

const line = (parked: ParkedEvent) =>
  escaped`${String(parked.position).padStart(8)}  ${parked.projection}  ${parked.stream}  ${parked.type}: ${parked.error}`;

/** `suite projections parked` and `suite projections retry`. */
export function addProjectionCommands(program: Command): void {
  const projections = program
    .command('projections')
    .description('the events projections parked because they could not apply them');

  projections
    .command('parked')
    .description('list the parked events: position, projection, stream, type and error')
    .addOption(dataDirOption())
    .option('--json', 'print them as a JSON array')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      const suite = await quietSuite(config(options));
      const parked = await everyParkedEvent(suite.readStore);
      await suite.close();
      if (options.json) console.log(jsonText(parked, 2));
      else {
        for (const each of parked) console.log(line(each));
        console.log(`${parked.length} parked event(s)`);
      }
    });

  projections
    .command('retry')
    .description(
      'apply the parked events again after a fix or an upcaster (run it with the suite stopped, as `suite rebuild`)',
    )
    .addOption(dataDirOption())
    .option('--position <position>', 'only the event parked at this position', wholeNumber)
    .action(async (options: { dataDir?: string; position?: number }) => {
      const suite = await quietSuite(config(options));
      try {
        await suite.runtime.start();
        const outcome = await suite.runtime.retryParked(options.position);
        if (options.position !== undefined && outcome.retried === 0) {
          console.error(`No event is parked at position ${options.position}.`);
          process.exitCode = 1;
          return;
        }
        console.log(
          `${outcome.retried} parked event(s) retried: ${outcome.applied.length} applied, ${outcome.stillParked.length} still parked`,
        );
        for (const parked of outcome.stillParked) console.log(line(parked));
      } finally {
        await suite.close();
      }
    });
}

/** `suite rebuild`. */
export function addRebuildCommand(program: Command): void {
  program
    .command('rebuild')
    .description('drop every read model and rebuild it from the event log')
    .addOption(dataDirOption())
    .action(async (options: { dataDir?: string }) => {
      const suite = await quietSuite(config(options));
      const bar = progressBar('Rebuilding');
      bar.start(await suite.eventStore.headPosition(), 0);
      const started = performance.now();
      await suite.runtime.rebuild((position, head) => bar.update(position, { total: head }));
      bar.stop();
      const seconds = (performance.now() - started) / 1000;
      console.log(`Rebuilt read models from ${suite.runtime.position()} events in ${seconds.toFixed(2)} s.`);
      await suite.close();
    });
}
