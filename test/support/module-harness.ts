import type { RequestListener } from 'node:http';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { loadConfig } from '../../src/config';
import { openSuite, settle as settleSuite, startProjecting, startWorker, type Suite } from '../../src/main';
import { createSeedContext, type SeedContext } from '../../src/seed/context';
import { NOW, SERVER_SECRET, TOKEN } from './esm-harness';
import { tempDir } from './temp-dir';

export { NOW, SERVER_SECRET, TOKEN };

export interface ModuleHarness<Fixtures> {
  app: RequestListener;
  suite: Suite;
  fixtures: Fixtures;
  /** Resolves once the read models show every event written so far, and due jobs have run. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface ModuleHarnessOptions<Fixtures> {
  /** The bearer token; `null`: writes are disabled. */
  token?: string | null;
  /** Writes the fixture records through the module's commands (time starts at 2026-11-01T08:00:00Z). */
  fixtures?: (seed: SeedContext) => Promise<Fixtures>;
  /** Writes the module's own demo data instead of (or before) the fixtures. */
  demo?: boolean;
}

/**
 * One module on a fresh store in a temp dir, with the clock fixed at NOW: only this module's
 * collections and projector, the fixtures written through its commands and projected before any test.
 */
export async function openModule<Fixtures = undefined>(
  module: ModuleDefinition,
  options: ModuleHarnessOptions<Fixtures> = {},
): Promise<ModuleHarness<Fixtures>> {
  const { dir, cleanup } = tempDir();
  const token = options.token === undefined ? TOKEN : (options.token ?? undefined);
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  const suite = await openSuite(config, {
    logger: createLogger('silent'),
    clock: { now: () => NOW },
    modules: [module],
  });
  await startProjecting(suite);
  await startWorker(suite);
  const settle = () => settleSuite(suite);

  if (options.demo) await module.seed?.(createSeedContext(suite.eventStore, suite.ids, `demo:${module.id}`));
  const seed = createSeedContext(suite.eventStore, suite.ids, 'fixtures');
  seed.at(new Date('2026-11-01T08:00:00Z'));
  const fixtures = (await options.fixtures?.(seed)) as Fixtures;
  await settle();

  return {
    app: createModuleApp(module, suite, { apiToken: token, sessionSecret: SERVER_SECRET }),
    suite,
    fixtures,
    settle,
    async close() {
      await suite.close();
      cleanup();
    },
  };
}

/** Every document of a collection (`ppm.projects`), parsed. */
export async function allDocuments(harness: ModuleHarness<unknown>, collection: string) {
  const page = await harness.suite.readStore.find(collection, { limit: 100_000, offset: 0 });
  return page.items.map((item) => JSON.parse(item) as Record<string, unknown> & { id: number });
}
