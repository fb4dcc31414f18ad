import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import type { LogTree } from '../../src/log-proofs/log-tree';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { startLogTree } from '../../src/serving/log-tree';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { signedHead } from '../support/signed-head';
import { testMetadata as metadata } from '../support/stored-event';
import { openCheckpoint, tileReader, type Fetcher } from '../support/tile-client';

jest.setTimeout(30_000);

let h: EsmHarness;
let tree: LogTree;
let audit: ReturnType<typeof createAuditApp>;
let verifierKey: string;

/** Appends `count` events straight to the log, as stored, a few to each of three streams. */
async function append(count: number): Promise<void> {
  for (let done = 0; done < count; done += 50) {
    const events = Array.from({ length: Math.min(50, count - done) }, (_, n) => ({
      type: 'ThingHappened',
      schema_version: 1,
      data: { n: done + n },
    }));
    await h.suite.storedEvents.append(`test.thing-${done % 3}`, events, {
      expectedRevision: 'any',
      metadata,
    });
  }
}

/** Grows the log by `count` events and answers the checkpoint that covers them (signed within a second). */
async function grow(count: number) {
  await append(count);
  return signedHead(h.suite.storedEvents, tree);
}

const get: Fetcher = async (path) => {
  const response = await request(audit)
    .get(`/${path}`)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  return { status: response.status, body: response.body as Buffer };
};

beforeEach(async () => {
  h = await openEsm();
  tree = await startLogTree(h.suite);
  audit = createAuditApp({ ...h.suite, logTree: tree }, 'auditor-token-42');
  verifierKey = resolveLogSigner(h.suite.config).verifierKey;
});
afterEach(async () => {
  await tree.stop();
  await h.close();
});

describe('public checkpoints', () => {
  it('serve the latest without a credential, its signing time in an extension line the signature covers', async () => {
    const latest = await grow(3);
    for (const path of ['/api/v1/checkpoint', '/checkpoint']) {
      const response = await request(audit).get(path).expect(200);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      const checkpoint = openCheckpoint(response.text, verifierKey);
      expect(checkpoint).toMatchObject({ origin: 'suite.local/log', size: latest.size, root: latest.root });
      expect(checkpoint.extensions).toEqual([`suite.local/log time ${latest.signed_at}`]);
      expect(() =>
        openCheckpoint(response.text.replace(latest.signed_at, '2000-01-01T00:00:00Z'), verifierKey),
      ).toThrow(/no valid signature/);
    }
  });

  it('serve any kept size, and list the kept sizes with their times after a size', async () => {
    const first = await grow(2);
    const second = await grow(2);
    const { body } = await request(audit).get('/api/v1/checkpoints').expect(200);
    const sizes = (body.data as { size: number; time: string }[]).map(({ size }) => size);
    expect(sizes).toEqual(expect.arrayContaining([first.size, second.size]));
    expect(body.data).toContainEqual({ size: first.size, time: first.signed_at });
    for (const { size } of body.data as { size: number }[]) {
      const response = await request(audit).get('/api/v1/checkpoint').query({ size }).expect(200);
      expect(openCheckpoint(response.text, verifierKey).size).toBe(size);
    }
    const after = await request(audit).get('/api/v1/checkpoints').query({ after: first.size }).expect(200);
    expect(after.body.data[0].size).toBeGreaterThan(first.size);
    const paged = await request(audit).get('/api/v1/checkpoints').query({ limit: 1 }).expect(200);
    expect(paged.body).toMatchObject({
      data: [{ size: sizes[0] }],
      meta: { after: 0, limit: 1, next_after: sizes[0] },
    });
  });

  it('answer 404 naming the nearest kept sizes for a size not kept, and refuse bad parameters', async () => {
    const latest = await grow(2);
    const missing = await request(audit)
      .get('/api/v1/checkpoint')
      .query({ size: latest.size + 1000 })
      .expect(404);
    expect(missing.body.error).toMatchObject({
      code: 'not_found',
      details: { nearest_sizes: expect.arrayContaining([latest.size]) },
    });
    expect((await request(audit).get('/api/v1/checkpoint?size=0').expect(422)).body.error.code).toBe(
      'validation_error',
    );
    expect((await request(audit).get('/api/v1/checkpoints?limit=1001').expect(422)).body.error.code).toBe(
      'validation_error',
    );
    expect((await request(audit).get('/api/v1/checkpoint?tree_size=1').expect(400)).body.error.code).toBe(
      'unknown_parameter',
    );
  });

  it('are rate-limited per client address: 429 with Retry-After past the budget', async () => {
    await grow(1);
    const limited = createAuditApp(
      {
        ...h.suite,
        logTree: tree,
        config: { ...h.suite.config, logReadRateLimit: { capacity: 2, refillPerSecond: 0.01 } },
      },
      'auditor-token-42',
    );
    await request(limited).get('/checkpoint').expect(200);
    await request(limited).get('/tile/0/000.p/1').expect(200);
    const refused = await request(limited).get('/api/v1/checkpoints').expect(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('C2SP tlog-tiles', () => {
  it('a tile client written from the spec recomputes every signed root from tiles alone, and every entry', async () => {
    await grow(300);
    await grow(40);
    await grow(230);
    const { body } = await request(audit).get('/api/v1/checkpoints').expect(200);
    const kept = body.data as { size: number }[];
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const { size } of kept) {
      const note = (await request(audit).get('/api/v1/checkpoint').query({ size }).expect(200)).text;
      const signed = openCheckpoint(note, verifierKey);
      expect((await tileReader(get, size).root()).equals(signed.root)).toBe(true);
    }
    const latest = openCheckpoint((await request(audit).get('/checkpoint')).text, verifierKey);
    const entries = await tileReader(get, latest.size).entries();
    const events = await h.suite.storedEvents.readAll({ after: 0, limit: latest.size });
    // Each entry is what the tree hashes, the event's hash: nothing else of the event.
    expect(entries.map((entry) => entry.toString('hex'))).toEqual(events.map((event) => event.hash));
  });

  it('serve full tiles as immutable bytes, and 404 for what is not a tile or not covered by the latest checkpoint', async () => {
    const latest = await grow(300);
    const full = await request(audit).get('/tile/0/000').expect(200);
    expect(full.headers['content-type']).toBe('application/octet-stream');
    expect(full.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('tile/0/000')).body.length).toBe(256 * 32);
    expect((await get('tile/entries/000')).body.length).toBe(256 * 34);
    const width = latest.size % 256;
    expect(await get(`tile/0/001.p/${width}`)).toMatchObject({ status: 200, body: { length: width * 32 } });
    for (const path of [
      '/tile/0/001',
      `/tile/0/001.p/${width + 1}`,
      '/tile/1/000',
      '/tile/0/1',
      '/tile/0/x000/000',
      '/tile/0/000.p/256',
      '/tile/0/000.p/0',
      '/tile/00/000',
      '/tile/64/000',
      '/tile/entries/001',
    ]) {
      expect({ path, code: (await request(audit).get(path).expect(404)).body.error.code }).toEqual({
        path,
        code: 'not_found',
      });
    }
  });
});
