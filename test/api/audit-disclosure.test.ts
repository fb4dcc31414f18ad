import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { operatorContext } from '../../src/cli/common';
import type { StoredEvent } from '../../src/events/envelope';
import { bundleVerdict, type EvidenceBundle } from '../../src/log-proofs/evidence';
import type { LogTree } from '../../src/log-proofs/log-tree';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { eraseSubject } from '../../src/privacy/erase';
import { keyIdOf } from '../../src/privacy/sealed-value';
import { startLogTree } from '../../src/serving/log-tree';
import { auth, leaveWeek, openHrm, type HrmHarness } from '../support/hrm-harness';
import { signedHead as signedHeadOf } from '../support/signed-head';

jest.setTimeout(60_000);

const AUDITOR = 'auditor-token-42';
const asAuditor = { Authorization: `Bearer ${AUDITOR}` };

let h: HrmHarness;
let tree: LogTree;
let logged: Record<string, unknown>[];
let audit: ReturnType<typeof createAuditApp>;
let verifierKey: string;
let position: number;
let subject: string;

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** The latest checkpoint, once it covers the whole log. */
const signedHead = () => signedHeadOf(h.suite.storedEvents, tree);

const evidence = async (query: Record<string, unknown>, status = 200) =>
  (await request(audit).get('/api/v1/evidence').query(query).set(asAuditor).expect(status))
    .body as EvidenceBundle & { error?: { code: string; message: string } };

beforeAll(async () => {
  h = await openHrm();
  tree = await startLogTree(h.suite);
  const captured = capturingLogger();
  logged = captured.lines;
  audit = createAuditApp({ ...h.suite, logTree: tree, logger: captured.logger }, AUDITOR);
  verifierKey = resolveLogSigner(h.suite.config).verifierKey;
  await request(h.app)
    .post('/api/v1/leave')
    .set(auth)
    .send({ ...leaveWeek(h.fixtures.grace), description: 'Family matters' })
    .expect(201);
  const [submitted] = (
    await h.suite.storedEvents.queryLog({ type: 'LeaveApplicationSubmitted', after: 0, limit: 1000 })
  ).slice(-1) as StoredEvent[];
  position = (submitted as StoredEvent).position;
  subject = `hrm.employee-${h.fixtures.grace}`;
  await signedHead();
});
afterAll(async () => {
  await tree.stop();
  await h.close();
});

describe('GET /api/v1/evidence of a leave request', () => {
  it('without disclose: the event as stored, nothing opened, nothing disclosed (the first format)', async () => {
    const bundle = await evidence({ position });
    expect(bundle.format).toBe('suite-inclusion-evidence/1');
    expect(bundle.event).toEqual(await h.suite.storedEvents.eventAt(position));
    expect(bundle.event.opened).toBeUndefined();
    expect(bundle.disclosed).toBeUndefined();
    expect(JSON.stringify(bundle)).not.toContain('Family matters');
    expect(bundleVerdict(bundle, verifierKey)).toEqual({ event: expect.anything(), disclosed: [] });
  });

  it('with disclose=personal: the subject’s key, whose id it hashes to, proves the reason offline', async () => {
    const bundle = await evidence({ position, disclose: 'personal' });
    expect(bundle.format).toBe('suite-inclusion-evidence/2');
    expect(bundle.event.data).toEqual((await h.suite.storedEvents.eventAt(position))?.data);
    expect(bundle.event.opened).toMatchObject({ '/description': 'Family matters' });
    expect(bundle.disclosed).toEqual([{ subject, key_id: expect.any(String), key: expect.any(String) }]);
    const [entry] = bundle.disclosed as { key_id: string; key: string }[];
    expect(keyIdOf(Buffer.from(entry?.key ?? '', 'base64'))).toBe(entry?.key_id);
    const verdict = bundleVerdict(JSON.parse(JSON.stringify(bundle)), verifierKey);
    expect(verdict.problem).toBeUndefined();
    expect(verdict.disclosed).toEqual(
      expect.arrayContaining([
        {
          place: `position ${position}`,
          pointer: '/description',
          subject,
          key_id: entry?.key_id,
          value: 'Family matters',
          erased: false,
        },
      ]),
    );
  });

  it('logs each disclosure with who asked, whose key and which event, never the key', async () => {
    logged.length = 0;
    const bundle = await evidence({ position, disclose: 'personal' });
    const disclosures = logged.filter((line) => line.msg === 'personal data key disclosed');
    expect(disclosures).toEqual([
      expect.objectContaining({ level: 30, principal: 'token:auditor', subject, position }),
    ]);
    const [entry] = bundle.disclosed as { key: string }[];
    expect(JSON.stringify(logged)).not.toContain(entry?.key);
  });

  it('answers 422 naming any other disclose value', async () => {
    const { error } = await evidence({ position, disclose: 'everything' }, 422);
    expect(error?.code).toBe('validation_error');
    expect(error?.message).toContain('everything');
  });

  it('is refused offline with a key that does not hash to its id, or when a value it opened was changed', async () => {
    const bundle = await evidence({ position, disclose: 'personal' });
    const [entry] = bundle.disclosed as { subject: string; key_id: string; key: string }[];
    const otherKey = { ...entry, key: Buffer.alloc(32, 7).toString('base64') };
    expect(bundleVerdict({ ...bundle, disclosed: [otherKey] }, verifierKey).problem).toBe(
      `the disclosed keys: the key of ${subject} disclosed as ${entry?.key_id} does not hash to that id`,
    );
    const claimed = { ...bundle, event: { ...bundle.event, opened: { '/description': 'Holiday' } } };
    expect(bundleVerdict(claimed, verifierKey).problem).toMatch(/the opened value of \/\w+ at position/);
    expect(bundleVerdict({ ...bundle, disclosed: [] }, verifierKey).problem).toMatch(
      /no key of .* is disclosed/,
    );
  });

  it('any byte of a disclosed bundle changed: refused, or the same verdict where only its JSON whitespace changed', async () => {
    const bundle = await evidence({ position, disclose: 'personal' });
    const text = Buffer.from(`${JSON.stringify(bundle, null, 2)}\n`);
    const original = bundleVerdict(JSON.parse(text.toString('utf8')), verifierKey);
    expect(original.problem).toBeUndefined();
    // The event's position is the store's, not covered by its hash (see AUDIT.md): its digits, and the
    // space before them (a digit there makes another position), are left out.
    const digits = text.indexOf(`"position": ${position}`) + '"position": '.length;
    const unhashed = (index: number) => index >= digits - 1 && index < digits + String(position).length;
    fc.assert(
      fc.property(
        fc.nat({ max: text.length - 1 }).filter((index) => !unhashed(index)),
        fc.integer({ min: 0, max: 255 }),
        (index, byte) => {
          fc.pre(text[index] !== byte);
          const changed = Buffer.from(text);
          changed[index] = byte;
          let parsed: unknown;
          try {
            parsed = JSON.parse(changed.toString('utf8'));
          } catch {
            return; // verify-bundle refuses a file that is not JSON
          }
          const verdict = bundleVerdict(parsed, verifierKey);
          if (JSON.stringify(parsed) === JSON.stringify(bundle)) expect(verdict).toEqual(original);
          else expect(verdict.problem).toEqual(expect.any(String));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('the evidence of an erased subject’s leave request', () => {
  it('says the key was erased, reads the values erased, and still verifies', async () => {
    const erasure = await eraseSubject(operatorContext(h.suite), h.suite.subjectKeys, subject, 'Art. 17');
    expect(erasure.position).toBeGreaterThan(position);
    const bundle = await evidence({ position, disclose: 'personal' });
    expect(bundle.disclosed).toEqual([{ subject, key_id: expect.any(String), erased: true }]);
    expect(bundle.event.opened).toEqual({ '/employee_name': '[erased]', '/description': null });
    const verdict = bundleVerdict(JSON.parse(JSON.stringify(bundle)), verifierKey);
    expect(verdict.problem).toBeUndefined();
    expect(verdict.disclosed.map(({ pointer, erased }) => [pointer, erased])).toEqual([
      ['/employee_name', true],
      ['/description', true],
    ]);
  });
});
