import type { RequestListener } from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { createIdentity } from '../../src/api/kit/identity';
import { requireApproval } from '../../src/approvals/policies';
import type { StoredEvent } from '../../src/events/envelope';
import type { Principal, Role } from '../../src/iam/principal';
import { parseCheckpoint } from '../../src/log-proofs/checkpoint';
import { growTree, type LogTree } from '../../src/log-proofs/log-tree';
import { treeRoot } from '../../src/log-proofs/merkle';
import { checkpointText } from '../../src/log-proofs/checkpoint';
import { openNote } from '../../src/log-proofs/note';
import type { RecordEvidenceBundle } from '../../src/log-proofs/record-evidence';
import { resolveLogSigner } from '../../src/log-proofs/signing-key';
import { openSqliteTreeStore, treeReader } from '../../src/log-proofs/tree-store';
import { recordBundleVerdict } from '../../src/cli/record-proofs';
import { createSeedContext } from '../../src/seed/context';
import { crmModule } from '../../src/api/crm';
import { addCompany, addContact, openOpportunity } from '../../src/commands/crm/handlers';
import { crmStreams } from '../../src/events/crm';
import { company, contact, deal } from '../support/crm-fixtures';
import { startLogTree } from '../../src/serving/log-tree';
import { openHrm, TOKEN, type HrmHarness } from '../support/hrm-harness';
import { openModule, SERVER_SECRET } from '../support/module-harness';
import { leafHash, verifyInclusion } from '../support/rfc9162';
import { signedHead as signedHeadOf } from '../support/signed-head';

const AUDITOR = 'record-evidence-auditor-01';
const auth = { Authorization: `Bearer ${AUDITOR}` };
const admin = { Authorization: `Bearer ${TOKEN}` };

const principals: Record<string, Principal> = {};
const credential = (name: string, roles: Role[]) => {
  principals[name] = { id: `key:${name}`, kind: 'key', name, roles, person: `key:${name}` };
  return { Authorization: `Bearer ${name}` };
};
const writer = credential('hr-writer', ['hrm:writer']);
const approver = credential('hr-approver', ['hrm:approver']);
const identity = createIdentity({
  apiToken: TOKEN,
  auditToken: AUDITOR,
  authenticators: [async (token) => principals[token] ?? null],
});

let h: HrmHarness;
let hr: RequestListener;
let tree: LogTree;
let audit: RequestListener;
let verifierKey: string;
let leave: number;
/** The size of the checkpoint signed once the leave was opened, before its proposal. */
let openedSize: number;

const evidencePath = (id: number | string = leave) => `/api/v1/evidence/records/hrm/leave/${id}`;

/** The latest checkpoint, once it covers the whole log. */
const signedHead = () => signedHeadOf(h.suite.storedEvents, tree);

const auditApp = (logTree?: LogTree) =>
  createAuditApp({ ...h.suite, logTree, config: { apiToken: TOKEN } }, AUDITOR, undefined, identity);

/**
 * Grace's leave: opened, its approval proposed by one principal and applied by another under a
 * four-eyes policy, then Grace erased.
 */
beforeAll(async () => {
  h = await openHrm();
  hr = createModuleApp(hrmModule, h.suite, { apiToken: TOKEN, sessionSecret: SERVER_SECRET, identity });
  tree = await startLogTree(h.suite);
  audit = auditApp(tree);
  verifierKey = resolveLogSigner(h.suite.config).verifierKey;
  const { commands } = createSeedContext(h.suite.eventStore, h.suite.ids, 'policy');
  await requireApproval(commands, hrmModule, 'PATCH /api/v1/leave/{id}', 'hrm:approver');
  const opened = await request(hr)
    .post('/api/v1/leave')
    .set(writer)
    .send({
      employee_id: h.fixtures.grace,
      leave_type: 'Sick Leave',
      from_date: '2026-11-23',
      to_date: '2026-11-24',
      description: 'Migraine',
    })
    .expect(201);
  leave = opened.body.id;
  openedSize = (await signedHead()).size;
  const proposed = await request(hr).patch(`/api/v1/leave/${leave}`).set(writer).send({ status: 'Approved' });
  expect(proposed.status).toBe(202);
  await request(hr).post(`/api/v1/proposals/${proposed.body.id}/approve`).set(approver).expect(200);
  await request(audit)
    .post('/api/v1/erasures')
    .set(admin)
    .send({ subject: `hrm.employee-${h.fixtures.grace}`, reason: 'Art. 17' })
    .expect(201);
  await signedHead();
}, 30_000);
afterAll(async () => {
  await tree.stop();
  await h.close();
});

describe('GET /api/v1/evidence/records/{module}/{resource}/{id}', () => {
  it('proves every event of the story, proposal and erasure included, as stored, against one signed checkpoint', async () => {
    const latest = await signedHead();
    const { body } = await request(audit).get(evidencePath()).set(auth).expect(200);
    const history = await request(audit).get(`/api/v1/history/hrm/leave/${leave}`).set(auth).expect(200);
    const story = history.body.data.events.map(({ event }: { event: StoredEvent }) => event);
    expect(body).toEqual({
      format: 'suite-record-evidence/1',
      module: 'hrm',
      resource: 'leave',
      id: leave,
      tree_size: latest.size,
      checkpoint: latest.note,
      events: expect.any(Array),
    });
    const proven = body.events as RecordEvidenceBundle['events'];
    expect(proven.map(({ event }) => [event.event_id, event.type])).toEqual(
      story.map((event: StoredEvent) => [event.event_id, event.type]),
    );
    expect(proven.map(({ event }) => event.type)).toEqual(
      expect.arrayContaining(['ChangeProposed', 'ChangeApproved', 'ChangeApplied', 'SubjectErased']),
    );
    const root = parseCheckpoint(openNote(body.checkpoint, verifierKey)).root;
    for (const { event, index, leaf_hash, hashes } of proven) {
      const position = tree.store.leaf(index)?.position as number;
      const { position: storedAt, ...stored } = (await h.suite.storedEvents.eventAt(position)) as StoredEvent;
      expect(storedAt).toBe(position);
      expect(event).toEqual(stored);
      const input = leafHash(Buffer.from(event.hash, 'hex'));
      expect(leaf_hash).toBe(input.toString('hex'));
      const path = hashes.map((hash) => Buffer.from(hash, 'hex'));
      expect(verifyInclusion(input, index, latest.size, path, root)).toBe(true);
    }
    expect(JSON.stringify(body)).not.toContain('Migraine');
  });

  it('verifies offline, printing the leave as its own projection folds it, its reason still sealed', async () => {
    const { body } = await request(audit).get(evidencePath()).set(auth).expect(200);
    const { valid, output } = recordBundleVerdict(JSON.stringify(body, null, 2), verifierKey);
    expect(valid).toBe(true);
    const [first, second, ...json] = output.trimEnd().split('\n');
    expect(first).toBe('valid');
    expect(second).toBe(
      `hrm/leave/${leave}, folded from ${body.events.length} event(s) proven in the tree of ${body.tree_size} leaves:`,
    );
    const record = JSON.parse(json.join('\n'));
    expect(record).toMatchObject({ id: leave, employee_id: h.fixtures.grace, status: 'Approved' });
    expect(record.description).toMatch(/^pd1:/);
    expect(output).not.toContain('Migraine');
  });

  it('proves against an older kept checkpoint, counting the story’s later events as not covered', async () => {
    const { body } = await request(audit)
      .get(evidencePath())
      .query({ tree_size: openedSize })
      .set(auth)
      .expect(200);
    const full = await request(audit).get(evidencePath()).set(auth).expect(200);
    expect(body.tree_size).toBe(openedSize);
    expect(body.events.length).toBeGreaterThan(0);
    expect(body.events.length + body.not_yet_covered).toBe(full.body.events.length);
    expect(full.body).not.toHaveProperty('not_yet_covered');
    const { valid, output } = recordBundleVerdict(JSON.stringify(body), verifierKey);
    expect(valid).toBe(true);
    expect(output).toContain(
      `; ${body.not_yet_covered} later event(s) the checkpoint does not cover yet were left out`,
    );
    expect(JSON.parse(output.split('\n').slice(2).join('\n'))).toMatchObject({ status: 'Open' });
  });

  it('waits for a checkpoint that covers an event just written', async () => {
    await request(hr).patch(`/api/v1/leave/${leave}`).set(writer).send({ status: 'Cancelled' }).expect(202);
    const head = await h.suite.storedEvents.headPosition();
    const { body } = await request(audit).get(evidencePath()).set(auth).expect(200);
    expect(body).not.toHaveProperty('not_yet_covered');
    const last = body.events.at(-1);
    expect(last.event.type).toBe('ChangeProposed');
    expect(last.index).toBe(tree.store.leafAt(head)?.index);
  });

  it('answers the covered events after 2 s when no checkpoint covers the rest, saying how many it left out', async () => {
    const frozen = openSqliteTreeStore(path.join(h.suite.config.dataDir, 'frozen-tree.db'));
    await growTree(h.suite.storedEvents, frozen);
    const { size } = frozen.extent();
    const root = treeRoot(size, treeReader(frozen));
    const signer = resolveLogSigner(h.suite.config);
    const note = signer.sign(checkpointText({ origin: h.suite.config.logOrigin, size, root }));
    frozen.keepCheckpoint({ size, root, note, signed_at: '2026-11-21T09:30:00Z' });
    await request(hr).patch(`/api/v1/leave/${leave}`).set(writer).send({ status: 'Cancelled' }).expect(202);
    await growTree(h.suite.storedEvents, frozen);
    const stale = auditApp({ ...tree, store: frozen });
    const started = Date.now();
    const { body } = await request(stale).get(evidencePath()).set(auth).expect(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(body.tree_size).toBe(size);
    expect(body.not_yet_covered).toBeGreaterThan(0);
    frozen.close();
  });

  it.each([
    ['no such record', '/api/v1/evidence/records/hrm/leave/99999'],
    ['no such resource', '/api/v1/evidence/records/hrm/nothing/1'],
    ['no such module', '/api/v1/evidence/records/xyz/leave/1'],
    ['no checkpoint of that size kept', `/api/v1/evidence/records/hrm/leave/1?tree_size=999999`],
  ])('answers 404 for %s', async (_case, route) => {
    const { body } = await request(audit).get(route).set(auth).expect(404);
    expect(body.error.code).toBe('not_found');
  });

  it.each([
    ['an id that is not one of the resource’s', evidencePath('abc'), 'id'],
    ['a tree size of 0', `${evidencePath(1)}?tree_size=0`, 'tree_size'],
    ['a tree size that is no number', `${evidencePath(1)}?tree_size=x`, 'tree_size'],
  ])('answers 422 for %s, naming it', async (_case, route, field) => {
    const { body } = await request(audit).get(route).set(auth).expect(422);
    expect(body.error.code).toBe('validation_error');
    expect(JSON.stringify(body.error)).toContain(field);
  });

  it('answers 400 for an unknown parameter, naming it', async () => {
    const { body } = await request(audit)
      .get(`${evidencePath(1)}?position=3`)
      .set(auth)
      .expect(400);
    expect(body.error).toMatchObject({ code: 'unknown_parameter', details: { parameter: 'position' } });
  });

  it('answers 503 where the process keeps no tree, 401 without auditor credentials, 405 to other methods', async () => {
    const { body } = await request(auditApp()).get(evidencePath()).set(auth).expect(503);
    expect(body.error.code).toBe('api_disabled');
    await request(audit).get(evidencePath()).expect(401);
    await request(audit).post(evidencePath()).set(auth).expect(405);
  });

  it('is declared in the audit API’s description and index', async () => {
    const description = await request(audit).get('/api/openapi.json').expect(200);
    const operation = description.body.paths['/api/v1/evidence/records/{module}/{resource}/{id}'].get;
    expect(operation.operationId).toBe('audit_getRecordEvidence');
    expect(operation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['module', 'resource', 'id', 'tree_size']),
    );
    const index = await request(audit).get('/api/').expect(200);
    expect(JSON.stringify(index.body)).toContain('/api/v1/evidence/records/{module}/{resource}/{id}');
  });
});

describe('a record bundle with its subjects\u2019 keys disclosed (disclose=personal)', () => {
  it('proves the plaintext of a leave\u2019s reason offline, and names the key of an erased subject as gone', async () => {
    const kept = await request(hr)
      .post('/api/v1/leave')
      .set(writer)
      .send({
        employee_id: h.fixtures.alan,
        leave_type: 'Sick Leave',
        from_date: '2026-11-25',
        to_date: '2026-11-25',
        description: 'Dentist',
      })
      .expect(201);
    await signedHead();
    const path = `${evidencePath(kept.body.id)}?disclose=personal`;
    const { body } = await request(audit).get(path).set(auth).expect(200);
    expect(body.disclosed).toEqual([
      { subject: `hrm.employee-${h.fixtures.alan}`, key_id: expect.any(String), key: expect.any(String) },
    ]);
    const { valid, output } = recordBundleVerdict(JSON.stringify(body), verifierKey);
    expect(valid).toBe(true);
    const lines = output.trimEnd().split('\n');
    const folded = lines.slice(2, lines.indexOf('}') + 1);
    expect(JSON.parse(folded.join('\n'))).toMatchObject({ description: 'Dentist' });
    expect(lines).toContainEqual(expect.stringMatching(/^index \d+ \/description: "Dentist"$/));

    const erased = await request(audit).get(`${evidencePath()}?disclose=personal`).set(auth).expect(200);
    expect(erased.body.disclosed).toEqual([
      { subject: `hrm.employee-${h.fixtures.grace}`, key_id: expect.any(String), erased: true },
    ]);
    const verdict = recordBundleVerdict(JSON.stringify(erased.body), verifierKey);
    expect(verdict.valid).toBe(true);
    expect(verdict.output).toMatch(/\/description: erased \(the key \w+ of hrm\.employee-\d+ is gone\)/);
  });

  it('is refused when a disclosed key is not the one its id names', async () => {
    const { body } = await request(audit).get(`${evidencePath()}?disclose=personal`).set(auth).expect(200);
    const forged = {
      ...body,
      disclosed: [{ ...body.disclosed[0], erased: undefined, key: Buffer.alloc(32, 7).toString('base64') }],
    };
    const { valid, output } = recordBundleVerdict(JSON.stringify(forged), verifierKey);
    expect(valid).toBe(false);
    expect(output).toMatch(/^invalid: the disclosed keys: .* does not hash to that id/);
  });

  it('refuses to disclose anything else: 422 naming the parameter', async () => {
    const { body } = await request(audit).get(`${evidencePath()}?disclose=everything`).set(auth).expect(422);
    expect(body.error.details.issues[0].loc).toEqual(['query', 'disclose']);
  });
});

describe('a record bundle spliced from honest pieces', () => {
  let own: RecordEvidenceBundle;
  let other: RecordEvidenceBundle;
  let otherLeave: number;

  beforeAll(async () => {
    const opened = await request(hr)
      .post('/api/v1/leave')
      .set(writer)
      .send({
        employee_id: h.fixtures.alan,
        leave_type: 'Annual Leave',
        from_date: '2026-12-01',
        to_date: '2026-12-02',
        description: 'Moving house',
      })
      .expect(201);
    otherLeave = opened.body.id;
    await signedHead();
    other = (await request(audit).get(evidencePath(otherLeave)).set(auth).expect(200)).body;
    own = (await request(audit).get(evidencePath()).set(auth).expect(200)).body;
    expect(own.tree_size).toBe(other.tree_size);
  });

  const verdictOf = (bundle: RecordEvidenceBundle) =>
    recordBundleVerdict(JSON.stringify(bundle), verifierKey);
  const eventAt = (bundle: RecordEvidenceBundle, at: number) =>
    bundle.events[at] as RecordEvidenceBundle['events'][number];

  it('is not made against a kept checkpoint older than the record: 404 naming it', async () => {
    const { body } = await request(audit)
      .get(evidencePath(otherLeave))
      .query({ tree_size: openedSize })
      .set(auth)
      .expect(404);
    expect(body.error.message).toBe(
      `No event of hrm/leave/${otherLeave} is in the checkpoint of ${openedSize} leaves`,
    );
  });

  it('is refused with an event of another record slipped in, in log order', () => {
    const events = [...own.events, ...other.events].sort((a, b) => a.index - b.index);
    const stranger = eventAt(other, 0);
    expect(verdictOf({ ...own, events }).output).toBe(
      `invalid: the event at index ${stranger.index} (hrm.leave-${otherLeave} revision 0): it is not one of hrm/leave/${leave}'s events\n`,
    );
  });

  it('is refused when it names another record than its events', () => {
    const { output } = verdictOf({ ...own, id: otherLeave });
    expect(output).toMatch(
      new RegExp(`^invalid: the event at index \\d+ \\(hrm\\.leave-${leave} revision 0\\): `),
    );
  });

  it('is refused with its events out of log order, or one twice', () => {
    const [first, second, ...rest] = own.events;
    const swapped = verdictOf({ ...own, events: [second!, first!, ...rest] });
    expect(swapped.output).toMatch(/: its index is not after the one before it \(\d+\): not in log order\n$/);
    const twice = verdictOf({ ...own, events: [first!, first!, second!, ...rest] });
    expect(twice.output).toMatch(/^invalid: .*not in log order\n$/);
  });

  it('is refused with an erasure of a subject none of its events holds', () => {
    const erasure = own.events.find(({ event }) => event.type === 'SubjectErased')!;
    const events = [...other.events, erasure].sort((a, b) => a.index - b.index);
    expect(verdictOf({ ...other, events }).output).toMatch(
      /: it erased a subject whose personal data none of the other events holds\n$/,
    );
  });

  it('is valid with an event left out, and folds what it holds: a bundle proves its events, not that they are all', () => {
    const events = own.events.filter(
      ({ event }) => event.type !== 'ChangeApplied' && event.type !== 'LeaveApplicationApproved',
    );
    const { valid, output } = verdictOf({ ...own, events });
    expect(valid).toBe(true);
    expect(JSON.parse(output.split('\n').slice(2).join('\n'))).toMatchObject({ status: 'Open' });
  });
});

describe('a record named by its event\u2019s log position (a CRM stage change)', () => {
  it('is not proven by a record bundle, which holds no positions: 404 says to prove its event alone', async () => {
    const crm = await openModule(crmModule, {
      fixtures: async ({ commands }) => {
        const { id: company_id } = await addCompany(commands, company({}));
        const { id: contact_id } = await addContact(commands, contact({ company_id }));
        return openOpportunity(commands, deal({ company_id, contact_id }));
      },
    });
    const crmTree = await startLogTree(crm.suite);
    try {
      const [opened] = await crm.suite.storedEvents.readStream(crmStreams.opportunity(crm.fixtures.id));
      const crmAudit = createAuditApp({ ...crm.suite, logTree: crmTree }, AUDITOR);
      const { body } = await request(crmAudit)
        .get(`/api/v1/evidence/records/crm/stage-changes/${opened?.position}`)
        .set(auth)
        .expect(404);
      expect(body.error.message).toMatch(
        /without their log positions, which no proof covers: prove each on its own/,
      );
    } finally {
      await crmTree.stop();
      await crm.close();
    }
  });
});

/** Which bytes of a JSON text lie outside its strings: there, whitespace is insignificant. */
function outsideStrings(bytes: Buffer): boolean[] {
  const outside: boolean[] = [];
  let inString = false;
  let escaping = false;
  for (const byte of bytes) {
    outside.push(!inString && byte !== 0x22);
    if (escaping) escaping = false;
    else if (inString && byte === 0x5c) escaping = true;
    else if (byte === 0x22) inString = !inString;
  }
  return outside;
}

const WHITESPACE = [0x20, 0x09, 0x0a, 0x0d];

describe('a record bundle tampered in any byte', () => {
  it('is refused, unless the byte is insignificant whitespace: then it is valid with the same print', async () => {
    const { body } = await request(audit).get(evidencePath()).set(auth).expect(200);
    const honest = Buffer.from(`${JSON.stringify(body, null, 2)}\n`);
    const expected = recordBundleVerdict(honest.toString('utf8'), verifierKey);
    expect(expected.valid).toBe(true);
    const outside = outsideStrings(honest);
    fc.assert(
      fc.property(fc.nat({ max: honest.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, replacement) => {
        fc.pre(honest[at] !== replacement);
        const tampered = Buffer.from(honest);
        tampered[at] = replacement;
        const verdict = recordBundleVerdict(tampered.toString('utf8'), verifierKey);
        const insignificant =
          outside[at] && WHITESPACE.includes(honest[at] as number) && WHITESPACE.includes(replacement);
        if (insignificant) expect(verdict).toEqual(expected);
        else expect(verdict.valid).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is refused where whitespace would hide a second spelling of a number: -0 for 0', async () => {
    const { body } = await request(audit).get(evidencePath()).set(auth).expect(200);
    const text = JSON.stringify(body, null, 2).replace('"revision": 0', '"revision":-0');
    expect(recordBundleVerdict(text, verifierKey)).toEqual({
      valid: false,
      output: 'invalid: the file: the number -0 is not as the suite writes it\n',
    });
  });
});
