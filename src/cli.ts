#!/usr/bin/env node
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger } from './api/kit/logging';
import { diffReadModels } from './audit/diff';
import { formatEvent, header, type LogFormat } from './audit/format';
import { copyLog, positionAt } from './audit/replay';
import { ConfigError, type Config } from './config';
import { startTracing, tracing } from './telemetry/tracing';
import type { StoredEvent } from './events/envelope';
import type { LogQuery } from './events/event-store';
import { createProjectionRuntime } from './projections/runtime';
import { openSqliteReadStore } from './projections/sqlite-read-store';
import { verifyLog } from './events/verify';
import { resolveLogSigner } from './log-proofs/signing-key';
import { addProofCommands, problemAgainst } from './cli/proofs';
import { checkGeneration, type GenerationCheck, type RecordedGeneration } from './fpa/verify';
import { seedDemoData, settle, startWorker, suiteCollections, suiteProjectors, type Suite } from './main';
import {
  startApiRole,
  startAuditorRole,
  startConsoleRole,
  startProjectorRole,
  startRelayRole,
  startWorkerRole,
} from './serving/roles';
import { startSuite } from './serving/start';
import { MODULE_IDS } from './module-ids';
import { upcast } from './events/catalog';
import { MODULES } from './api/modules';
import { openExport, PRIVATE_UMASK } from './private-files';
import { escapeControls, escaped, jsonText } from './cli/terminal';
import { seededBytes } from './seed/random';
import { config, dataDirOption, eventsAfter, quietSuite, wholeNumber } from './cli/common';
import { addMarketCommands } from './cli/market';
import { addKeyCommands } from './cli/keys';
import { addPolicyCommands } from './cli/policy';
import { addErasureCommand } from './cli/privacy';
import { addProjectionCommands } from './cli/projections';
import type { Logger } from 'pino';

// Before any file is written: the stores, keys and exports are the owner's alone (0700 / 0600).
process.umask(PRIVATE_UMASK);

function progressBar(label: string, unit = 'events'): SingleBar {
  return new SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
      noTTYOutput: true,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
}

/** The log filters shared by `suite events`, `suite audit log` and `suite audit export`. */
function withLogFilters(command: Command): Command {
  return command
    .addOption(dataDirOption())
    .option('--module <id>', 'only events of this module (e.g. esm)')
    .option('--stream <stream>', 'only this stream (e.g. esm.request-42)')
    .option('--type <type>', 'only this event type (e.g. RequestSubmitted)')
    .option('--actor <actor>', 'only events caused by this actor')
    .option('--organisation <id>', 'only events of this organisation')
    .option('--from <time>', 'occurred at or after this ISO time')
    .option('--to <time>', 'occurred at or before this ISO time')
    .option('--after <position>', 'start after this global position', wholeNumber, 0)
    .option('--until <position>', 'stop at this global position', wholeNumber);
}

type LogOptions = Omit<LogQuery, 'limit'> & { dataDir?: string };

async function* filteredLog(suite: Suite, options: LogOptions): AsyncGenerator<StoredEvent> {
  const { module, stream, type, actor, organisation, from, to, until } = options;
  const query = { module, stream, type, actor, organisation, from, to, until };
  for (let after = options.after; ;) {
    const page = await suite.auditEvents.queryLog({ ...query, after, limit: 1000 });
    yield* page;
    if (page.length < 1000) return;
    after = (page[page.length - 1] as StoredEvent).position;
  }
}

async function printLog(options: LogOptions & { limit: number; format: LogFormat }): Promise<void> {
  const suite = await quietSuite(config(options));
  const first = header(options.format);
  if (first) console.log(first);
  let shown = 0;
  for await (const event of filteredLog(suite, options)) {
    if (shown++ >= options.limit) break;
    console.log(formatEvent(event, options.format));
  }
  await suite.close();
}

/**
 * Keeps a serving process up until it is asked to stop: on SIGINT/SIGTERM its servers and stores stop,
 * letting requests in flight finish. A promise rejected with nobody to handle it is logged, and the
 * process keeps serving (Node would exit): every request already answers its own failures.
 */
function serveUntilStopped(logger: Logger, running: { stop(): Promise<void> }): void {
  const traces = tracing();
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: reason }, 'a rejection nobody handled; serving on'),
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    await running.stop();
    // The spans not exported yet go to the collector before the process ends.
    await traces?.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'spans not exported'));
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * The logger of a serving process; its tracing is started first when the OTEL_* variables ask for it,
 * named `service` unless OTEL_SERVICE_NAME names it.
 */
function serving(settings: Config, service: string): Logger {
  startTracing(process.env, service);
  return createLogger(settings.logLevel);
}

const program = new Command('suite')
  .description('The suite: event-sourced enterprise modules')
  .version('1.0.0');

program
  .command('start')
  .description(
    'serve every module and the audit API in one process (seeds an empty store unless SUITE_SEED=none)',
  )
  .addOption(dataDirOption())
  .option('--read-only', 'serve the read models as they are (a point-in-time copy from `suite replay`)')
  .action(async (options: { dataDir?: string; readOnly?: boolean }) => {
    const settings = config(options);
    const logger = serving(settings, 'suite');
    serveUntilStopped(logger, await startSuite(settings, { logger, readOnly: options.readOnly }));
  });

const moduleIds = MODULE_IDS.join(', ');

program
  .command('api')
  .description("role: serve the APIs of the given modules (reads from the projector role's read models)")
  .addOption(dataDirOption())
  .requiredOption('--module <id...>', `module(s) to serve (${moduleIds}), or all`)
  .action(async (options: { dataDir?: string; module: string[] }) => {
    const settings = config(options);
    const logger = serving(settings, 'suite-api');
    const wanted = options.module.includes('all') ? MODULES.map((module) => module.id) : options.module;
    const modules = wanted.map((id) => {
      const module = MODULES.find((candidate) => candidate.id === id);
      if (!module) {
        const built = MODULES.map((candidate) => candidate.id).join(', ');
        throw new InvalidArgumentError(`unknown module ${id}; built modules: ${built}`);
      }
      return module;
    });
    serveUntilStopped(logger, await startApiRole(settings, modules, { logger }));
  });

program
  .command('projector')
  .description('role: keep every read model up to date with the log; /metrics on SUITE_METRICS_PORT')
  .addOption(dataDirOption())
  .action(async (options: { dataDir?: string }) => {
    const settings = config(options);
    const logger = serving(settings, 'suite-projector');
    serveUntilStopped(logger, await startProjectorRole(settings, { logger }));
  });

program
  .command('relay')
  .description('role: publish every committed event to Kafka (SUITE_KAFKA_BROKERS), at-least-once; /metrics')
  .addOption(dataDirOption())
  .action(async (options: { dataDir?: string }) => {
    const settings = config(options);
    const logger = serving(settings, 'suite-relay');
    serveUntilStopped(logger, await startRelayRole(settings, { logger }));
  });

program
  .command('worker')
  .description('role: queue and run the jobs the log makes due (BullMQ with SUITE_REDIS_URL); /metrics')
  .addOption(dataDirOption())
  .action(async (options: { dataDir?: string }) => {
    const settings = config(options);
    const logger = serving(settings, 'suite-worker');
    serveUntilStopped(logger, await startWorkerRole(settings, { logger }));
  });

program
  .command('auditor')
  .description(
    'role: serve the audit API, keep the Merkle tree over the log and sign its checkpoints; /metrics',
  )
  .addOption(dataDirOption())
  .action(async (options: { dataDir?: string }) => {
    const settings = config(options);
    const logger = serving(settings, 'suite-auditor');
    serveUntilStopped(logger, await startAuditorRole(settings, { logger }));
  });

program
  .command('console')
  .description(
    'role: serve the web console on SUITE_CONSOLE_PORT; it calls the module ports and the audit API from the browser',
  )
  .action(async () => {
    const settings = config({});
    const logger = createLogger(settings.logLevel);
    serveUntilStopped(logger, await startConsoleRole(settings, MODULES, logger));
  });

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
      console.log(`Demo data written with seed "${seed}": ${written} events, for the projector and workers.`);
    } else {
      const head = await suite.eventStore.headPosition();
      const bar = progressBar('Projecting');
      bar.start(head, 0);
      await suite.runtime.start();
      bar.update(suite.runtime.position());
      bar.stop();
      // What a first `suite start` would do next: run the jobs the demo data makes due.
      await startWorker(suite);
      await settle(suite);
      const total = await eventsAfter(suite.storedEvents, 0);
      const byJobs = await eventsAfter(suite.storedEvents, head);
      console.log(`Demo data written with seed "${seed}": ${total} events (${byJobs} by its jobs).`);
    }
    await suite.close();
  });

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

withLogFilters(program.command('events'))
  .description('list the event log: position, time, stream, type, actor (same as `suite audit log`)')
  .option('--limit <count>', 'at most this many events', wholeNumber, 100)
  .option('--json', 'one JSON envelope per line (NDJSON)')
  .action((options: LogOptions & { limit: number; json?: boolean }) =>
    printLog({ ...options, format: options.json ? 'ndjson' : 'table' }),
  );

const audit = program.command('audit').description('offline audit of the event log');

audit
  .command('verify')
  .description(
    'verify every hash chain, revision and schema; print the digest of the log (exit 1 on any problem)',
  )
  .addOption(dataDirOption())
  .option('--until <position>', 'verify up to this position', wholeNumber)
  .option('--against <checkpoint-file>', 'also prove the log extends this old signed checkpoint')
  .option(
    '--key <verifier-key>',
    'the key that signed it (default: the suite\u2019s own, `suite audit public-key`)',
  )
  .option('--json', 'print the report as JSON')
  .action(
    async (options: { dataDir?: string; until?: number; against?: string; key?: string; json?: boolean }) => {
      const suite = await quietSuite(config(options));
      const bar = progressBar('Verifying');
      bar.start(options.until ?? (await suite.storedEvents.headPosition()), 0);
      const report = await verifyLog(suite.storedEvents, suite.catalog, {
        until: options.until,
        onProgress: (position) => bar.update(position),
      });
      bar.stop();
      const against =
        options.against === undefined
          ? undefined
          : {
              checkpoint: options.against,
              problem: await problemAgainst(suite, options.against, options.key),
            };
      await suite.close();
      const extended = against === undefined || against.problem === undefined;
      if (options.json) {
        const extension = against && {
          checkpoint: against.checkpoint,
          extended,
          problem: against.problem ?? null,
        };
        console.log(jsonText({ ...report, ...(extension && { against: extension }) }, 2));
      } else {
        console.log(
          `${report.events_checked} events in ${report.streams} streams: ${report.ok ? 'intact' : `${report.problems.length} problem(s)`}`,
        );
        console.log(`digest at position ${report.digest.position}: sha256 ${report.digest.sha256}`);
        for (const problem of report.problems) {
          const at = problem.position ? ` (position ${problem.position})` : '';
          console.log(escaped`${problem.stream} revision ${problem.revision}${at}: ${problem.problem}`);
        }
        if (against) {
          console.log(
            extended
              ? escaped`${against.checkpoint}: the log extends this checkpoint`
              : escaped`${against.checkpoint}: NOT extended: ${against.problem}`,
          );
        }
      }
      process.exitCode = report.ok && extended ? 0 : 1;
    },
  );

audit
  .command('public-key')
  .description(
    "print the verifier key of the log's signed checkpoints (the signing key is made on first use)",
  )
  .addOption(dataDirOption())
  .action((options: { dataDir?: string }) => console.log(resolveLogSigner(config(options)).verifierKey));

addProofCommands(audit);

withLogFilters(audit.command('log'))
  .description('list the log with the audit filters, as a table or NDJSON')
  .option('--limit <count>', 'at most this many events', wholeNumber, Number.MAX_SAFE_INTEGER)
  .addOption(new Option('--format <format>', 'output format').choices(['table', 'ndjson']).default('table'))
  .action((options: LogOptions & { limit: number; format: LogFormat }) => printLog(options));

withLogFilters(audit.command('export'))
  .description('export the log (or a filtered part) as NDJSON or CSV, with a progress bar')
  .addOption(new Option('--format <format>', 'output format').choices(['ndjson', 'csv']).default('ndjson'))
  .requiredOption('--out <file>', 'file to write')
  .action(async (options: LogOptions & { format: LogFormat; out: string }) => {
    const suite = await quietSuite(config(options));
    const out = createWriteStream(options.out, { fd: openExport(options.out) });
    const first = header(options.format);
    if (first) out.write(`${first}\n`);
    const bar = progressBar('Exporting', 'positions');
    bar.start(options.until ?? (await suite.storedEvents.headPosition()), options.after);
    let count = 0;
    for await (const event of filteredLog(suite, options)) {
      if (!out.write(`${formatEvent(event, options.format)}\n`))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      count += 1;
      if (count % 1000 === 0) bar.update(event.position);
    }
    bar.update(bar.getTotal());
    bar.stop();
    await new Promise<void>((resolve) => out.end(() => resolve()));
    await suite.close();
    console.log(`${count} events written to ${options.out}`);
  });

audit
  .command('diff')
  .description('rebuild every read model into a scratch store and compare it with the live one')
  .addOption(dataDirOption())
  .action(async (options: { dataDir?: string }) => {
    const settings = config(options);
    const live = await quietSuite(settings);
    const scratchDir = mkdtempSync(path.join(tmpdir(), 'suite-diff-'));
    const scratch = openSqliteReadStore(path.join(scratchDir, 'read-models.db'));
    const collections = suiteCollections(live.modules);
    await scratch.defineCollections(collections);
    const projectors = suiteProjectors(live.modules);
    const rebuild = createProjectionRuntime(live.auditEvents, scratch, projectors, {
      onError: (error) => console.error(error),
      upcast: (event) => upcast(live.catalog, event),
    });
    try {
      const bar = progressBar('Rebuilding into a scratch store');
      bar.start(await live.eventStore.headPosition(), 0);
      await rebuild.rebuild((position, head) => bar.update(position, { total: head }));
      bar.stop();
      const differences = await diffReadModels(live.readStore, scratch, collections);
      if (differences.length === 0)
        console.log(`identical: ${collections.length} collections match a rebuild from the log`);
      for (const difference of differences) {
        const fields = difference.fields ? ` (${difference.fields.join(', ')})` : '';
        console.log(escaped`${difference.collection} ${difference.id}: ${difference.kind}${fields}`);
      }
      process.exitCode = differences.length === 0 ? 0 : 1;
    } finally {
      await scratch.close();
      await live.close();
      rmSync(scratchDir, { recursive: true, force: true });
    }
  });

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

addMarketCommands(program);
addProjectionCommands(program);
addKeyCommands(program);
addPolicyCommands(program);
addErasureCommand(program);

program.parseAsync().catch((error: unknown) => {
  // A configuration error's lines are the suite's own; any other message may quote a stored value.
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error instanceof Error ? escapeControls(error.message) : error);
  process.exit(1);
});
