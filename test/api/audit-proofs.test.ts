import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { parseCheckpoint } from '../../src/log-proofs/checkpoint';
import { bundleProblem } from '../../src/log-proofs/evidence';
import type { LogTree } from '../../src/log-proofs/log-tree';
import { openNote } from '../../src/log-proofs/note';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { startLogTree } from '../../src/serving/log-tree';
import { openEsm, TOKEN, type EsmHarness } from '../support/esm-harness';
import { leafHash, verifyConsistency, verifyInclusion } from '../support/rfc9162';
import { signedHead as signedHeadOf } from '../support/signed-head';

const AUDITOR = 'auditor-token-42';
const auth = { Authorization: `Bearer ${AUDITOR}` };

let h: EsmHarness;
let tree: LogTree;
let audit: ReturnType<typeof createAuditApp>;

const bytes = (hashes: string[]) => hashes.map((hash) => Buffer.from(hash, 'hex'));

/** The latest checkpoint, once it covers the whole log. */
const signedHead = () => signedHeadOf(h.suite.storedEvents, tree);

async function submit(count: number) {
  for (let n = 0; n < count; n++) {
    await request(h.app)
      .post('/api/v1/requests')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ title: `Request ${n}`, status: 'Open', priority: 'High', service_id: h.fixtures.laptopService })
      .expect(201);
  }
}

beforeEach(async () => {
  h = await openEsm();
  tree = await startLogTree(h.suite);
  audit = createAuditApp({ ...h.suite, logTree: tree }, AUDITOR);
});
afterEach(async () => {
  await tree.stop();
  await h.close();
});

describe('GET /api/v1/checkpoint', () => {
  it('serves the latest signed checkpoint as text, signed by the verifier key `suite audit public-key` prints', async () => {
    const latest = await signedHead();
    const response = await request(audit).get('/api/v1/checkpoint').set(auth).expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const checkpoint = parseCheckpoint(openNote(response.text, resolveLogSigner(h.suite.config).verifierKey));
    expect(checkpoint).toMatchObject({ origin: 'suite.local/log', size: latest.size, root: latest.root });
  });

  it('needs auditor credentials for the proofs', async () => {
    for (const route of ['/api/v1/proofs/inclusion?index=0', '/api/v1/proofs/consistency?from=1']) {
      expect((await request(audit).get(route).expect(401)).body.error.code).toBe('unauthorized');
    }
  });

  it('answers 503 where the process keeps no tree (a read-only copy), whose health says log "none"', async () => {
    const untreed = createAuditApp(h.suite, AUDITOR);
    const { body } = await request(untreed).get('/api/v1/checkpoint').set(auth).expect(503);
    expect(body.error.code).toBe('api_disabled');
    expect((await request(untreed).get('/api/v1/health').expect(200)).body.log).toBe('none');
    expect((await request(audit).get('/api/v1/health').expect(200)).body.log).toBe('ok');
  });
});

describe('GET /api/v1/proofs/inclusion', () => {
  it('proves an event, by index or by position, against the signed root (checked by an independent RFC 9162 verifier)', async () => {
    await submit(5);
    const latest = await signedHead();
    const { body: events } = await request(audit)
      .get('/api/v1/events')
      .query({ limit: 3 })
      .set(auth)
      .expect(200);
    const third = events.data[2];
    const byIndex = await request(audit)
      .get('/api/v1/proofs/inclusion')
      .query({ index: 2 })
      .set(auth)
      .expect(200);
    const byPosition = await request(audit)
      .get('/api/v1/proofs/inclusion')
      .query({ position: third.position })
      .set(auth)
      .expect(200);
    expect(byPosition.body).toEqual(byIndex.body);
    const leaf = leafHash(Buffer.from(third.hash, 'hex'));
    expect(byIndex.body).toEqual({
      index: 2,
      tree_size: latest.size,
      position: third.position,
      leaf_hash: leaf.toString('hex'),
      hashes: expect.any(Array),
      event: third,
    });
    expect(verifyInclusion(leaf, 2, latest.size, bytes(byIndex.body.hashes), latest.root)).toBe(true);
  });

  it('proves against an older tree size', async () => {
    const old = await signedHead();
    await submit(3);
    await signedHead();
    const { body } = await request(audit)
      .get('/api/v1/proofs/inclusion')
      .query({ index: 0, tree_size: old.size })
      .set(auth)
      .expect(200);
    const first = leafHash(Buffer.from(body.event.hash, 'hex'));
    expect(verifyInclusion(first, 0, old.size, bytes(body.hashes), old.root)).toBe(true);
  });

  it.each([
    [
      'a tree size above the latest checkpoint',
      (size: number) => ({ index: 0, tree_size: size + 1 }),
      'tree_size',
    ],
    ['an index outside the tree', (size: number) => ({ index: size }), 'index'],
    ['an event after the tree', (size: number) => ({ position: size, tree_size: size - 1 }), 'position'],
    ['both index and position', () => ({ index: 0, position: 1 }), 'position'],
    ['neither index nor position', () => ({}), 'index'],
    ['a negative index', () => ({ index: -1 }), 'index'],
  ])('answers 422 for %s', async (_case, query, field) => {
    const { size } = await signedHead();
    const { body } = await request(audit)
      .get('/api/v1/proofs/inclusion')
      .query(query(size))
      .set(auth)
      .expect(422);
    expect(body.error.code).toBe('validation_error');
    expect(body.error.details.issues[0].loc).toEqual(['query', field]);
  });

  it('answers 404 for a position that names no event', async () => {
    await signedHead();
    const { body } = await request(audit)
      .get('/api/v1/proofs/inclusion')
      .query({ position: 999_999 })
      .set(auth)
      .expect(404);
    expect(body.error.code).toBe('not_found');
  });
});

describe('GET /api/v1/proofs/consistency', () => {
  it('proves the latest signed tree extends an older one (checked by an independent RFC 9162 verifier)', async () => {
    const old = await signedHead();
    await submit(4);
    const latest = await signedHead();
    const { body } = await request(audit)
      .get('/api/v1/proofs/consistency')
      .query({ from: old.size })
      .set(auth)
      .expect(200);
    expect(body).toEqual({ from: old.size, to: latest.size, hashes: expect.any(Array) });
    expect(verifyConsistency(old.size, latest.size, old.root, latest.root, bytes(body.hashes))).toBe(true);
  });

  it('gives an empty proof from a size to itself', async () => {
    const { size } = await signedHead();
    const { body } = await request(audit)
      .get('/api/v1/proofs/consistency')
      .query({ from: size, to: size })
      .set(auth)
      .expect(200);
    expect(body).toEqual({ from: size, to: size, hashes: [] });
  });

  it.each([
    ['from 0', () => ({ from: 0 }), 'from'],
    ['from above to', () => ({ from: 3, to: 2 }), 'from'],
    ['to above the latest checkpoint', (size: number) => ({ from: 1, to: size + 1 }), 'to'],
    ['no from', () => ({}), 'from'],
  ])('answers 422 for %s', async (_case, query, field) => {
    const { size } = await signedHead();
    const { body } = await request(audit)
      .get('/api/v1/proofs/consistency')
      .query(query(size))
      .set(auth)
      .expect(422);
    expect(body.error.details.issues[0].loc).toEqual(['query', field]);
  });
});

describe('GET /api/v1/evidence', () => {
  it('answers the bundle `suite audit prove` writes, the event as stored: it verifies offline, personal data and all', async () => {
    await submit(2);
    await request(h.app)
      .post('/api/v1/requests')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({
        title: 'Badge for a visitor',
        status: 'Open',
        priority: 'Low',
        service_id: h.fixtures.laptopService,
        form_data: JSON.stringify({ visitor: 'Ada Lovelace' }),
      })
      .expect(201);
    const latest = await signedHead();
    const sealed = await h.suite.storedEvents.eventAt(latest.size);
    expect(JSON.stringify(sealed)).not.toContain('Ada Lovelace');
    const verifierKey = resolveLogSigner(h.suite.config).verifierKey;
    for (let position = 1; position <= latest.size; position++) {
      const { body } = await request(audit)
        .get(`/api/v1/evidence?position=${position}`)
        .set(auth)
        .expect(200);
      expect(body).toMatchObject({ format: 'suite-inclusion-evidence/1', tree_size: latest.size });
      expect(body.event).toEqual(await h.suite.storedEvents.eventAt(position));
      expect(bundleProblem(body, verifierKey)).toBeUndefined();
    }
  });

  it('answers 404 for an event not in the tree or a checkpoint not kept, 422 without a position, 401 without auditor credentials', async () => {
    const latest = await signedHead();
    const beyond = await request(audit)
      .get(`/api/v1/evidence?position=${latest.size + 100}`)
      .set(auth)
      .expect(404);
    expect(beyond.body.error.message).toMatch(/No event at position/);
    const unkept = await request(audit)
      .get('/api/v1/evidence?position=1&tree_size=999999')
      .set(auth)
      .expect(404);
    expect(unkept.body.error.message).toMatch(/No checkpoint of 999999 leaves was kept/);
    await request(audit).get('/api/v1/evidence').set(auth).expect(422);
    await request(audit).get('/api/v1/evidence?position=1').expect(401);
  });
});
