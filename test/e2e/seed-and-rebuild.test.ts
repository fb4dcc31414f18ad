import { spawnSync } from 'node:child_process';
import { createLogger } from '../../src/api/kit/logging';
import { loadConfig } from '../../src/config';
import { upcast } from '../../src/events/catalog';
import { openSuite, seedDemoData, suiteProjectors, type Suite } from '../../src/main';
import type { Document } from '../../src/projections/read-store';
import { evolveStamped } from '../../src/projections/stamped-evolve';
import { seededBytes } from '../../src/seed/random';
import { tempDir } from '../support/temp-dir';
import { SUITE_CLI } from '../support/built-suite';

jest.setTimeout(60_000);

async function seededSuite(seed: string): Promise<{ suite: Suite; cleanup: () => void }> {
  const { dir, cleanup } = tempDir();
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_LOG_LEVEL: 'silent' });
  // As `suite seed` opens it: the subjects' keys and IVs drawn from the seed.
  const suite = await openSuite(config, { logger: createLogger('silent'), randomBytes: seededBytes(seed) });
  expect(await seedDemoData(suite, seed)).toBe(true);
  await suite.runtime.start();
  return { suite, cleanup };
}

async function snapshot(suite: Suite): Promise<Record<string, string[]>> {
  const collections = suite.modules.flatMap((module) =>
    module.resources.map((resource) => resource.collection.name),
  );
  const entries = await Promise.all(
    collections.map(async (name) => [
      name,
      (await suite.readStore.find(name, { limit: 100_000, offset: 0 })).items,
    ]),
  );
  return Object.fromEntries(entries);
}

async function lastHash(suite: Suite): Promise<string> {
  const head = await suite.eventStore.headPosition();
  const [last] = await suite.eventStore.readAll({ after: head - 1, limit: 1 });
  return last!.hash;
}

describe('demo data and rebuild', () => {
  // Seeding takes seconds: one seeded suite serves every case; the first case seeds a second to compare.
  let seeded: { suite: Suite; cleanup: () => void };
  beforeAll(async () => {
    seeded = await seededSuite('demo');
  });
  afterAll(async () => {
    await seeded.suite.close();
    seeded.cleanup();
  });

  it('writes the same events, read models and hash-chain head for the same seed', async () => {
    const other = await seededSuite('demo');
    try {
      expect(await seeded.suite.eventStore.headPosition()).toBeGreaterThan(1000);
      expect(await lastHash(other.suite)).toBe(await lastHash(seeded.suite));
      expect(await snapshot(other.suite)).toEqual(await snapshot(seeded.suite));
    } finally {
      await other.suite.close();
      other.cleanup();
    }
  });

  it('seeds departments, a catalogue, a knowledge base and a few hundred requests across statuses', async () => {
    const models = await snapshot(seeded.suite);
    expect(models['esm.departments']!.length).toBeGreaterThanOrEqual(5);
    expect(models['esm.services']!.length).toBeGreaterThanOrEqual(15);
    expect(models['esm.knowledge']!.length).toBeGreaterThanOrEqual(20);
    const requests = models['esm.requests']!.map((text) => JSON.parse(text) as { status: string });
    expect(requests.length).toBeGreaterThanOrEqual(200);
    expect(new Set(requests.map((request) => request.status)).size).toBeGreaterThanOrEqual(5);
    const services = models['esm.services']!.map((text) => JSON.parse(text) as { form_schema: string });
    for (const service of services) expect(JSON.parse(service.form_schema)).toMatchObject({ type: 'object' });
    expect(await seedDemoData(seeded.suite, 'demo')).toBe(false);
  });

  it('rebuilds read models identical to the live ones', async () => {
    const live = await snapshot(seeded.suite);
    const progress: number[] = [];
    await seeded.suite.runtime.rebuild((position) => progress.push(position));
    expect(progress[progress.length - 1]).toBe(await seeded.suite.eventStore.headPosition());
    expect(await snapshot(seeded.suite)).toEqual(live);
  });

  it('folds each record of a projection that names its stream from that stream alone, as stored', async () => {
    const { suite } = seeded;
    let checked = 0;
    for (const projection of suiteProjectors(suite.modules).flatMap((projector) => projector.projections)) {
      if (!projection.stream) continue;
      const { items } = await suite.readStore.find(projection.collection, { limit: 100_000, offset: 0 });
      for (const stored of items.map((text) => JSON.parse(text) as Document & { id: string | number })) {
        const folded = (await suite.eventStore.readStream(projection.stream(stored.id)))
          .filter((event) => projection.handles.includes(event.type))
          .reduce<Document | null>(
            (doc, event) => evolveStamped(projection, doc, upcast(suite.catalog, event)),
            null,
          );
        expect({ collection: projection.collection, doc: folded }).toEqual({
          collection: projection.collection,
          doc: stored,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('writes the events alone with --events-only (compose runs it so), for the projector and workers', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const seeded = spawnSync(process.execPath, [SUITE_CLI, 'seed', '--events-only', '--data-dir', dir], {
        env: { ...process.env, SUITE_LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      expect(seeded.status).toBe(0);
      const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
      const suite = await openSuite(config, { logger: createLogger('silent') });
      try {
        // No projector's checkpoint and no job triggers' one: nothing was projected or queued.
        expect(await suite.readStore.checkpoints()).toEqual(new Map());
        const events = await suite.storedEvents.readAll({ after: 0, limit: Number.MAX_SAFE_INTEGER });
        expect(seeded.stdout).toContain(`${events.length} events, for the projector and workers`);
      } finally {
        await suite.close();
      }
    } finally {
      cleanup();
    }
  });
});
