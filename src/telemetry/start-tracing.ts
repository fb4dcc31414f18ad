import { useTracing, type Tracing } from './tracing';

/**
 * Whether the standard variables ask for traces: OTEL_TRACES_EXPORTER names an exporter other than
 * `none`, or, unset, an OTLP endpoint is given; never with OTEL_SDK_DISABLED=true.
 */
export function tracesConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (exporters.length > 0) return exporters[0] !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts tracing when the OTEL_* variables ask for it, loading the OpenTelemetry SDK only then. The
 * service is named by OTEL_SERVICE_NAME (or `service.name` in OTEL_RESOURCE_ATTRIBUTES), else `fallbackName`.
 */
export function startTracing(env: NodeJS.ProcessEnv, fallbackName: string): Tracing | undefined {
  if (!tracesConfigured(env)) return undefined;
  const named =
    Boolean(env.OTEL_SERVICE_NAME) || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./open-telemetry') as typeof import('./open-telemetry');
  const started = sdk.startOpenTelemetry(named ? undefined : fallbackName);
  useTracing(started);
  return started;
}
