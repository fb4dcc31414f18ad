import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { createLogger } from '../../src/api/kit/logging';
import { loadConfig } from '../../src/config';
import { operatorContext } from '../../src/cli/common';
import { openSuite, seedDemoData, type Suite } from '../../src/main';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { eraseSubject } from '../../src/privacy/erase';
import { seededBytes } from '../../src/seed/random';
import type { StoredEvent } from '../../src/events/envelope';
import { startLogTree } from '../../src/serving/log-tree';
import { runSuiteCli } from '../support/suite-process';
import { tempDir } from '../support/temp-dir';

jest.setTimeout(600_000);

const AUDITOR = 'served-form-auditor-token';
const SEALED = /^pd1:[nt]:/;

type Served = Record<string, unknown> & { hash: string; data: unknown; opened?: Record<string, unknown> };

let dir: string;
let cleanup: () => void;
let suite: Suite;
let head: number;
let leaves: StoredEvent[];
let erasedEmployee: number;

const employeeOf = (event: StoredEvent) => (event.data as { employee_id: number }).employee_id;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('served-form-'));
  const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
  // As `suite seed` writes the demo data: keys and IVs from the seed.
  suite = await openSuite(config, { logger: createLogger('silent'), randomBytes: seededBytes('demo') });
  await seedDemoData(suite, 'demo');
  // One erased subject, an employee who asked for leave: their values read erased beside the sealed
  // data, which still hashes.
  leaves = await suite.auditEvents.queryLog({ type: 'LeaveApplicationSubmitted', after: 0, limit: 10_000 });
  erasedEmployee = employeeOf(leaves[0] as StoredEvent);
  await eraseSubject(
    operatorContext(suite),
    suite.subjectKeys,
    `hrm.employee-${erasedEmployee}`,
    'Art. 17 request',
  );
  head = await suite.storedEvents.headPosition();
});
afterAll(async () => {
  await suite.close();
  cleanup();
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An RFC 6901 pointer resolved in a value, written here apart from the suite's own walk. */
function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  return pointer
    .slice(1)
    .split('/')
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (at, step) =>
        typeof at === 'object' && at !== null && Object.hasOwn(at, step)
          ? (at as Record<string, unknown>)[step]
          : undefined,
      value,
    );
}

/** How many strings in the value take the sealed form. */
function sealedCount(value: unknown): number {
  if (typeof value === 'string') return SEALED.test(value) ? 1 : 0;
  if (typeof value !== 'object' || value === null) return 0;
  return Object.values(value).reduce<number>((count, item) => count + sealedCount(item), 0);
}

/**
 * What is wrong with a served event, as AUDIT.md tells an auditor to check it: the SHA-256 of the RFC
 * 8785 canonical JSON of the event without `hash`, `position` and `opened` is its `hash`; and every
 * pointer in `opened` names a sealed value of `data`, and every sealed value has one.
 */
function problemOf(event: Served): string | undefined {
  const { hash, position, opened, ...hashed } = event;
  const computed = createHash('sha256')
    .update(canonicalize(hashed) as string)
    .digest('hex');
  if (computed !== hash) return `${String(position)}: does not hash to its hash`;
  const pointers = Object.keys(opened ?? {});
  if (opened && pointers.length === 0) return `${String(position)}: an empty opened`;
  for (const pointer of pointers) {
    const sealed = atPointer(event.data, pointer);
    if (typeof sealed !== 'string' || !SEALED.test(sealed))
      return `${String(position)}: ${pointer} names no sealed value`;
  }
  if (sealedCount(event.data) !== pointers.length)
    return `${String(position)}: ${sealedCount(event.data)} sealed values, ${pointers.length} opened`;
  return undefined;
}

/** Checks every event; answers the count of events and of those with opened values. */
function checkAll(events: readonly Served[]): { events: number; opened: number } {
  const problems = events.flatMap((event) => problemOf(event) ?? []);
  expect(problems.slice(0, 5)).toEqual([]);
  return { events: events.length, opened: events.filter((event) => event.opened).length };
}

describe('every event of the demo log, as served, hashes to its hash', () => {
  it('GET /api/v1/events, every page', async () => {
    const audit = createAuditApp(suite, AUDITOR);
    const events: Served[] = [];
    for (let after: number | null = 0; after !== null;) {
      const { body } = await request(audit)
        .get('/api/v1/events')
        .query({ after, limit: 1000 })
        .set('Authorization', `Bearer ${AUDITOR}`)
        .expect(200);
      events.push(...(body.data as Served[]));
      after = body.meta.next_after as number | null;
    }
    const counted = checkAll(events);
    expect(counted.events).toBe(head);
    // The demo's personal values are many: a quarter of its events hold some.
    expect(counted.opened).toBeGreaterThan(head / 5);
    const erased = events
      .flatMap((event) => Object.values(event.opened ?? {}))
      .filter((v) => v === '[erased]');
    expect(erased.length).toBeGreaterThan(0);
  });

  it('suite events --json and suite audit export (NDJSON)', () => {
    const env = { SUITE_DATA_DIR: dir, SUITE_SEED: 'none' };
    const listed = runSuiteCli(env, 'events', '--json', '--limit', String(head + 1));
    expect(listed.status).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(checkAll(lines.map((line) => JSON.parse(line) as Served)).events).toBe(head);

    const out = path.join(dir, 'export.ndjson');
    expect(runSuiteCli(env, 'audit', 'export', '--out', out).status).toBe(0);
    const exported = readFileSync(out, 'utf8').trim().split('\n');
    expect(exported).toEqual(lines);
  });

  it('suite audit prove --disclose personal: verify-bundle proves a leave request’s reason', async () => {
    const tree = await startLogTree(suite);
    try {
      while ((tree.store.latestCheckpoint()?.size ?? 0) < head) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await tree.stop();
    }
    const kept = leaves.find(
      (event) =>
        employeeOf(event) !== erasedEmployee &&
        typeof (event.data as { description: unknown }).description === 'string',
    ) as StoredEvent;
    const env = { SUITE_DATA_DIR: dir, SUITE_SEED: 'none' };
    const key = resolveLogSigner(suite.config).verifierKey;
    const bundle = path.join(dir, 'leave.json');
    const prove = (position: number) =>
      runSuiteCli(
        env,
        'audit',
        'prove',
        '--position',
        String(position),
        '--disclose',
        'personal',
        '--out',
        bundle,
      );

    expect(prove(kept.position).status).toBe(0);
    const verified = runSuiteCli(env, 'audit', 'verify-bundle', bundle, '--key', key);
    expect(verified.status).toBe(0);
    const reason = JSON.stringify((kept.data as { description: string }).description);
    expect(verified.stdout).toMatch(new RegExp(`^valid\n(.*\n)*/description: ${escapeRegExp(reason)}\n`));

    // The erased subject's values, and a key that is not the one its id names, are the API's tests
    // (test/api/audit-disclosure.test.ts): the command prints what the same verdict says.
  });
});
