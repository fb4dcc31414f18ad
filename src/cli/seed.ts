import type { Command } from 'commander';
import { seedDemoData, settle, startJobs } from '../main';
import { seededBytes } from '../seed/random';
import { config, dataDirOption, eventsAfter, quietSuite } from './common';
import { progressBar } from './progress';

/** `suite seed`. */
export function addSeedCommand(program: Command): void {
  program
    .command('seed')
    .description(
      'write the deterministic demo data into an empty store, project it and run the jobs it makes due',
    )
    .addOption(dataDirOption())
    .option('--seed <value>', 'generator seed (default: SUITE_SEED, else "demo")')
    .option(
      '--events-only',
      'only write the events: the projector and worker roles project them and run their jobs (distributed profile)',
    )
    .action(async (options: { dataDir?: string; seed?: string; eventsOnly?: boolean }) => {
      const settings = config(options);
      const seed = options.seed ?? (settings.seed === 'none' ? 'demo' : settings.seed);
      const suite = await quietSuite(settings, { randomBytes: seededBytes(seed) });
      if (!(await seedDemoData(suite, seed))) {
        console.log('The store already holds events; demo data is only written into an empty store.');
      } else if (options.eventsOnly) {
        const written = await eventsAfter(suite.storedEvents, 0);
        console.log(
          `Demo data written with seed "${seed}": ${written} events, for the projector and workers.`,
        );
      } else {
        const head = await suite.eventStore.headPosition();
        const bar = progressBar('Projecting');
        bar.start(head, 0);
        await suite.runtime.start();
        bar.update(suite.runtime.position());
        bar.stop();
        // What a first `suite start` would do next: run the jobs the demo data makes due. Not the
        // sweeps: what the clock makes due (an SLA breached) depends on when the suite starts, and the
        // demo data is the same whenever it is written.
        await startJobs(suite);
        await settle(suite);
        const total = await eventsAfter(suite.storedEvents, 0);
        const byJobs = await eventsAfter(suite.storedEvents, head);
        console.log(`Demo data written with seed "${seed}": ${total} events (${byJobs} by its jobs).`);
      }
      await suite.close();
    });
}
