import { InvalidArgumentError, type Command } from 'commander';
import { createLogger } from '../api/kit/logging';
import { MODULES } from '../api/modules';
import { MODULE_IDS } from '../modules/ids';
import { serveUntilStopped, servingLogger } from '../serving/process';
import {
  startApiRole,
  startAuditorRole,
  startConsoleRole,
  startProjectorRole,
  startRelayRole,
  startWorkerRole,
} from '../serving/roles';
import { startSuite } from '../serving/start';
import { config, dataDirOption } from './common';

/** The roles that take nothing but the data directory: each serves /metrics on SUITE_METRICS_PORT. */
const BACKGROUND_ROLES = [
  {
    name: 'projector',
    description: 'role: keep every read model up to date with the log; /metrics on SUITE_METRICS_PORT',
    start: startProjectorRole,
  },
  {
    name: 'relay',
    description:
      'role: publish every committed event to Kafka (SUITE_KAFKA_BROKERS), at-least-once; /metrics',
    start: startRelayRole,
  },
  {
    name: 'worker',
    description: 'role: queue and run the jobs the log makes due (BullMQ with SUITE_REDIS_URL); /metrics',
    start: startWorkerRole,
  },
  {
    name: 'auditor',
    description:
      'role: serve the audit API, keep the Merkle tree over the log and sign its checkpoints; /metrics',
    start: startAuditorRole,
  },
];

/** `suite start` and the roles of the distributed profile. */
export function addServingCommands(program: Command): void {
  program
    .command('start')
    .description(
      'serve every module and the audit API in one process (seeds an empty store unless SUITE_SEED=none)',
    )
    .addOption(dataDirOption())
    .option('--read-only', 'serve the read models as they are (a point-in-time copy from `suite replay`)')
    .action(async (options: { dataDir?: string; readOnly?: boolean }) => {
      const settings = config(options);
      const logger = servingLogger(settings, 'suite');
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
      const logger = servingLogger(settings, 'suite-api');
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

  for (const { name, description, start } of BACKGROUND_ROLES) {
    program
      .command(name)
      .description(description)
      .addOption(dataDirOption())
      .action(async (options: { dataDir?: string }) => {
        const settings = config(options);
        const logger = servingLogger(settings, `suite-${name}`);
        serveUntilStopped(logger, await start(settings, { logger }));
      });
  }

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
}
