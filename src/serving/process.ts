import type { Logger } from 'pino';
import { createLogger } from '../api/kit/logging';
import type { Config } from '../config';
import { startTracing } from '../telemetry/start-tracing';
import { tracing } from '../telemetry/tracing';

/**
 * Keeps a serving process up until it is asked to stop: on SIGINT/SIGTERM its servers and stores stop,
 * letting requests in flight finish. A promise rejected with nobody to handle it is logged, and the
 * process keeps serving (Node would exit): every request already answers its own failures.
 */
export function serveUntilStopped(logger: Logger, running: { stop(): Promise<void> }): void {
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
export function servingLogger(settings: Config, service: string): Logger {
  startTracing(process.env, service);
  return createLogger(settings.logLevel);
}
