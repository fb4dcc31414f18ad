#!/usr/bin/env node
import { SingleBar, Presets } from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger } from './api/kit/logging';
import { ConfigError, loadConfig, type Config } from './config';
import { streamModule, type StoredEvent } from './events/envelope';
import { openSuite, seedDemoData, startSuite } from './main';

function parsePositiveInteger(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function config(options: { dataDir?: string }): Config {
  return loadConfig(options.dataDir ? { ...process.env, SUITE_DATA_DIR: options.dataDir } : process.env);
}

function progressBar(label: string): SingleBar {
  return new SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} events | {eta_formatted} left`,
      noTTYOutput: true,
    },
    Presets.shades_classic,
  );
}

const dataDirOption = new Option('--data-dir <dir>', 'data directory (overrides SUITE_DATA_DIR)');
const program = new Command('suite')
  .description('The suite: event-sourced enterprise modules')
  .version('1.0.0');

program
  .command('start')
  .description('serve every module in one process (seeds an empty store unless SUITE_SEED=none)')
  .addOption(dataDirOption)
  .action(async (options) => {
    const settings = config(options);
    const logger = createLogger(settings.logLevel);
    const running = await startSuite(settings, { logger });
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'shutting down: finishing in-flight requests');
      await running.stop();
      logger.info('stopped');
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
  });

program
  .command('seed')
  .description('write the deterministic demo data into an empty store')
  .addOption(dataDirOption)
  .option('--seed <value>', 'generator seed (default: SUITE_SEED, else "demo")')
  .action(async (options) => {
    const settings = config(options);
    const suite = await openSuite(settings, { logger: createLogger('warn') });
    const seed = options.seed ?? (settings.seed === 'none' ? 'demo' : settings.seed);
    const written = await seedDemoData(suite, seed);
    if (written) {
      const head = await suite.eventStore.headPosition();
      const bar = progressBar('Projecting');
      bar.start(head, 0);
      await suite.runtime.start();
      bar.update(suite.runtime.position());
      bar.stop();
      console.log(`Demo data written with seed "${seed}": ${head} events.`);
    } else {
      console.log('The store already holds events; demo data is only written into an empty store.');
    }
    await suite.close();
  });

program
  .command('rebuild')
  .description('drop every read model and rebuild it from the event log')
  .addOption(dataDirOption)
  .action(async (options) => {
    const suite = await openSuite(config(options), { logger: createLogger('warn') });
    const bar = progressBar('Rebuilding');
    bar.start(await suite.eventStore.headPosition(), 0);
    const started = performance.now();
    await suite.runtime.rebuild((position, head) => bar.update(position, { total: head }));
    bar.stop();
    const seconds = (performance.now() - started) / 1000;
    const events = suite.runtime.position();
    console.log(`Rebuilt read models from ${events} events in ${seconds.toFixed(2)} s.`);
    await suite.close();
  });

interface EventsOptions {
  dataDir?: string;
  module?: string;
  stream?: string;
  type?: string;
  actor?: string;
  after: number;
  limit: number;
  json?: boolean;
}

function matches(event: StoredEvent, options: EventsOptions): boolean {
  return (
    (!options.module || streamModule(event.stream) === options.module) &&
    (!options.stream || event.stream === options.stream) &&
    (!options.type || event.type === options.type) &&
    (!options.actor || event.metadata.actor === options.actor)
  );
}

program
  .command('events')
  .description('list the event log: position, time, stream, type, actor')
  .addOption(dataDirOption)
  .option('--module <id>', 'only events of this module (e.g. esm)')
  .option('--stream <stream>', 'only this stream (e.g. esm.request-42)')
  .option('--type <type>', 'only this event type (e.g. RequestSubmitted)')
  .option('--actor <actor>', 'only events caused by this actor')
  .option('--after <position>', 'start after this global position', parsePositiveInteger, 0)
  .option('--limit <count>', 'at most this many events', parsePositiveInteger, 100)
  .option('--json', 'one JSON envelope per line (NDJSON)')
  .action(async (options: EventsOptions) => {
    const suite = await openSuite(config(options), { logger: createLogger('warn') });
    let after = options.after;
    let shown = 0;
    if (!options.json) console.log(['position', 'occurred_at', 'stream', 'type', 'actor'].join('\t'));
    while (shown < options.limit) {
      const page = await suite.eventStore.readAll({ after, limit: 1000 });
      if (page.length === 0) break;
      for (const event of page) {
        if (shown >= options.limit || !matches(event, options)) continue;
        shown += 1;
        const line = options.json
          ? JSON.stringify(event)
          : [event.position, event.metadata.occurred_at, event.stream, event.type, event.metadata.actor].join(
              '\t',
            );
        console.log(line);
      }
      after = (page[page.length - 1] as StoredEvent).position;
    }
    await suite.close();
  });

program.parseAsync().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
