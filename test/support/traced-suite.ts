import { z } from 'zod';
import { createLogger } from '../../src/api/kit/logging';
import type { ModuleDefinition } from '../../src/api/kit/module';
import type { ModuleJob } from '../../src/modules/module';
import { esmModule } from '../../src/api/esm';
import { loadConfig } from '../../src/config';
import { startSuite } from '../../src/serving/start';
import { startTracing } from '../../src/telemetry/start-tracing';

/**
 * `suite start` serving the service desk with one more job, due after each submitted request, so that
 * a POST causes a job (no module of the suite has one a request makes due); traced as the OTEL_*
 * variables say. Run from the sources in a child process (the OTLP exporter cannot run inside jest).
 * It tells its parent once it serves, and stops, exporting its spans, on SIGTERM.
 */
export const FOLLOW_UP_JOB = 'esm.follow-up';

const followUp: ModuleJob<{ stream: string }> = {
  name: FOLLOW_UP_JOB,
  payload: z.object({ stream: z.string() }),
  trigger: { on: ['RequestSubmitted'], payload: (event) => ({ stream: event.stream }) },
  async run({ stream }, services) {
    await services.eventStore.readStream(stream);
  },
};
const serviceDesk: ModuleDefinition = { ...esmModule, jobs: [...(esmModule.jobs ?? []), followUp] };

async function main(): Promise<void> {
  const tracing = startTracing(process.env, 'suite-test');
  const logger = createLogger('warn');
  const running = await startSuite(loadConfig(), { logger, modules: [serviceDesk] });
  process.once('SIGTERM', () => {
    void running
      .stop()
      .then(() => tracing?.shutdown())
      .then(() => process.exit(0));
  });
  process.send?.('serving');
}

if (require.main === module) void main();
