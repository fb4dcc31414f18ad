import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempDir } from '../support/temp-dir';
import { loadConfig } from '../../src/config';
import { DEFAULT_READY_MAX_LAG } from '../../src/readiness';
import { tracesConfigured } from '../../src/telemetry/start-tracing';

describe('tracing configuration (the standard OTEL_* variables)', () => {
  it('is off unless an exporter or an OTLP endpoint is named, and off when disabled', () => {
    expect(tracesConfigured({})).toBe(false);
    expect(tracesConfigured({ OTEL_SERVICE_NAME: 'suite' })).toBe(false);
    expect(tracesConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracesConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(true);
    expect(tracesConfigured({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(
      tracesConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBe(false);
    expect(tracesConfigured({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('refuses an exporter it does not know, naming the variable', () => {
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(
      /OTEL_TRACES_EXPORTER: must be none, otlp or console/,
    );
  });

  it('does not load the OpenTelemetry SDK when tracing is off', () => {
    const script = `
      require('./src/telemetry/start-tracing').startTracing({}, 'suite');
      const loaded = Object.keys(require.cache).filter((file) => file.includes('@opentelemetry'));
      process.stdout.write(JSON.stringify(loaded));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: path.join(__dirname, '../..'),
      encoding: 'utf8',
    });
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});

describe("the distributed profile's drivers", () => {
  it('are not loaded by a suite on the embedded stores (they would hold about 30 MB of it)', () => {
    const { dir, cleanup } = tempDir();
    const script = `
      require('./src/serving/roles');
      const { openSuite } = require('./src/main');
      const { loadConfig } = require('./src/config');
      const { createLogger } = require('./src/api/kit/logging');
      const config = loadConfig({ SUITE_DATA_DIR: ${JSON.stringify(dir)}, SUITE_SEED: 'none' });
      openSuite(config, { logger: createLogger('silent') }).then(async (suite) => {
        await suite.close();
        const packages = Object.keys(require.cache).map((file) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(file)?.[1]);
        process.stdout.write(JSON.stringify([...new Set(packages.filter(Boolean))]));
      });`;
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
        cwd: path.join(__dirname, '../..'),
        encoding: 'utf8',
      });
      const loaded = JSON.parse(run.stdout) as string[];
      expect(loaded).toContain('better-sqlite3');
      for (const driver of ['mongodb', '@eventstore/db-client', 'bullmq', 'ioredis', 'kafkajs'])
        expect(loaded).not.toContain(driver);
    } finally {
      cleanup();
    }
  });
});

describe('SUITE_READY_MAX_LAG', () => {
  it(`defaults to ${DEFAULT_READY_MAX_LAG} events and takes a whole number`, () => {
    expect(loadConfig({}).readyMaxLag).toBe(DEFAULT_READY_MAX_LAG);
    expect(loadConfig({ SUITE_READY_MAX_LAG: '50' }).readyMaxLag).toBe(50);
    expect(() => loadConfig({ SUITE_READY_MAX_LAG: 'many' })).toThrow(/SUITE_READY_MAX_LAG/);
  });
});

describe('request logs', () => {
  it('are written asynchronously, and every line is out when the process exits', () => {
    const script = `
      const logger = require('./src/api/kit/logging').createLogger('info');
      for (let line = 0; line < 5000; line++) logger.info({ line }, 'request completed');
      process.exit(0);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: path.join(__dirname, '../..'),
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    const lines = run.stdout.split('\n').filter((line) => line.includes('"msg":"request completed"'));
    expect(lines).toHaveLength(5000);
  });
});
