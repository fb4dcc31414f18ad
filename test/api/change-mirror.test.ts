import type { RequestListener } from 'node:http';
import fc from 'fast-check';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { crmModule } from '../../src/api/crm';
import { esmModule } from '../../src/api/esm';
import { hrmModule } from '../../src/api/hrm';
import { createModuleApp } from '../../src/api/kit/app';
import { createLogger } from '../../src/api/kit/logging';
import type { ModuleDefinition, ResourceDefinition } from '../../src/api/kit/module';
import { requireApproval } from '../../src/approvals/policies';
import { addCompany, addContact, openOpportunity } from '../../src/commands/crm/handlers';
import { loadConfig, type Config } from '../../src/config';
import { openSuite, settle, startProjecting, startWorker, type Suite } from '../../src/main';
import { createSeedContext } from '../../src/seed/context';
import { company, contact, deal } from '../support/crm-fixtures';
import { SERVER_SECRET } from '../support/esm-harness';
import { writeFixtures, type HrmFixtures } from '../support/hrm-harness';
import { keyCredentials } from '../support/key-credentials';
import { tempDir } from '../support/temp-dir';

/**
 * Issue 54's mirror: a client that follows `/api/v1/changes` of three modules keeps a copy equal to
 * what their read endpoints serve, whatever writes, approvals, erasures, restarts and rebuilds happen
 * between (and during) its reads; erased values included.
 */

jest.setTimeout(300_000);

const MODULES: readonly ModuleDefinition[] = [esmModule, hrmModule, crmModule];
const ADMIN = 'mirror-admin-token-0123456789';
const AUDIT_TOKEN = 'mirror-audit-token-0123456789';
const { identity, credential } = keyCredentials(ADMIN, AUDIT_TOKEN);
const admin = { Authorization: `Bearer ${ADMIN}` };
const writer = credential('leave-clerk', ['hrm:writer', 'esm:writer', 'crm:writer']);
const approver = credential('hr-approver', ['hrm:approver', 'hrm:writer']);

interface Change {
  cursor: string;
  resource: string;
  id: string | number;
  op: 'upsert' | 'delete' | 'erase';
  record?: unknown;
}

/** A downstream copy of the three modules, kept by their change feeds alone. */
class Mirror {
  readonly records = new Map<string, unknown>();
  private readonly cursors = new Map<string, string>();

  async sync(module: string, app: RequestListener): Promise<number> {
    let requests = 0;
    for (;;) {
      const cursor = this.cursors.get(module);
      const query = cursor === undefined ? '?limit=37' : `?limit=37&after=${encodeURIComponent(cursor)}`;
      const res = await request(app).get(`/api/v1/changes${query}`);
      requests++;
      expect(res.status).toBe(200);
      for (const change of res.body.data as Change[]) {
        const key = `${module}/${change.resource}/${change.id}`;
        if (change.op === 'upsert') this.records.set(key, change.record);
        else this.records.delete(key);
      }
      this.cursors.set(module, res.body.meta.next as string);
      if (!res.body.meta.has_more) return requests;
    }
  }
}

/** Every record every resource of the modules serves, by `module/resource/id`. */
/**
 * A record as the feed carries it: without the names a read joins in (a request's `assignee_name`),
 * which a mirror takes from the named records' own changes (the agents').
 */
const withoutNames = (resource: ResourceDefinition, item: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(item).filter(([field]) => !(field in (resource.names ?? {}))));

async function served(apps: ReadonlyMap<string, RequestListener>): Promise<Map<string, unknown>> {
  const all = new Map<string, unknown>();
  for (const module of MODULES) {
    for (const resource of module.resources) {
      for (let offset = 0; ; offset += module.list.maxLimit) {
        const res = await request(apps.get(module.id) as RequestListener)
          .get(`/api/v1/${resource.path}?limit=${module.list.maxLimit}&offset=${offset}`)
          .expect(200);
        const items = res.body.data as ({ id: string | number } & Record<string, unknown>)[];
        for (const item of items)
          all.set(`${module.id}/${resource.path}/${item.id}`, withoutNames(resource, item));
        if (items.length < module.list.maxLimit) break;
      }
    }
  }
  return all;
}

/** The suite of the three modules on one data directory, which a test may restart and rebuild. */
class Running {
  suite!: Suite;
  apps = new Map<string, RequestListener>();
  audit!: RequestListener;

  private constructor(
    private readonly config: Config,
    private readonly cleanup: () => void,
  ) {}

  /** On a new data directory. */
  static async started(): Promise<Running> {
    const { dir, cleanup } = tempDir();
    const config = loadConfig({ SUITE_DATA_DIR: dir, SUITE_SEED: 'none', SUITE_LOG_LEVEL: 'silent' });
    const running = new Running(config, cleanup);
    await running.open();
    return running;
  }

  async stop(): Promise<void> {
    await this.suite.close();
    this.cleanup();
  }

  async open(rebuild = false): Promise<void> {
    this.suite = await openSuite(this.config, { logger: createLogger('silent'), modules: MODULES });
    if (rebuild) await this.suite.runtime.rebuild();
    await startProjecting(this.suite);
    await startWorker(this.suite);
    const settings = { apiToken: ADMIN, sessionSecret: SERVER_SECRET, identity };
    this.apps = new Map(MODULES.map((module) => [module.id, createModuleApp(module, this.suite, settings)]));
    this.audit = createAuditApp(
      { ...this.suite, config: { apiToken: ADMIN } },
      AUDIT_TOKEN,
      undefined,
      identity,
    );
  }

  async restart(rebuild: boolean): Promise<void> {
    await this.suite.close();
    await this.open(rebuild);
  }

  app(module: string): RequestListener {
    return this.apps.get(module) as RequestListener;
  }
}

type Step =
  | { kind: 'request' }
  | { kind: 'move-request'; status: 'Replied' | 'Resolved' | 'Closed' }
  | { kind: 'move-deal'; stage: 'Demo' | 'Proposal' | 'Negotiation' }
  | { kind: 'leave' }
  | { kind: 'erase'; who: 'grace' | 'alan' | 'contact' }
  | { kind: 'restart'; rebuild: boolean }
  | { kind: 'sync'; module: 'esm' | 'hrm' | 'crm'; during: 'request' | 'leave' | 'none' };

const steps: fc.Arbitrary<Step[]> = fc.array(
  fc.oneof(
    fc.constant<Step>({ kind: 'request' }),
    fc
      .constantFrom('Replied', 'Resolved', 'Closed')
      .map((status): Step => ({ kind: 'move-request', status })),
    fc.constantFrom('Demo', 'Proposal', 'Negotiation').map((stage): Step => ({ kind: 'move-deal', stage })),
    fc.constant<Step>({ kind: 'leave' }),
    fc.constantFrom('grace', 'alan', 'contact').map((who): Step => ({ kind: 'erase', who })),
    fc.boolean().map((rebuild): Step => ({ kind: 'restart', rebuild })),
    fc
      .record({
        module: fc.constantFrom('esm', 'hrm', 'crm'),
        during: fc.constantFrom('request', 'leave', 'none'),
      })
      .map((sync): Step => ({ kind: 'sync', ...sync })),
  ),
  { minLength: 4, maxLength: 12 },
);

it('keeps a copy fed by the change feeds equal to the read endpoints', async () => {
  await fc.assert(
    fc.asyncProperty(steps, async (script) => {
      const running = await Running.started();
      try {
        const seed = createSeedContext(running.suite.eventStore, running.suite.ids, 'fixtures');
        const people: HrmFixtures = await writeFixtures(seed);
        await addCompany(seed.commands, company({}));
        const { id: contactId } = await addContact(seed.commands, contact({}));
        const { id: dealId } = await openOpportunity(seed.commands, deal({ contact_id: contactId }));
        await requireApproval(seed.commands, hrmModule, 'POST /api/v1/leave', 'hrm:approver');
        await settle(running.suite);

        const mirror = new Mirror();
        const requests: number[] = [];
        // Leave is taken on working days: 1 December 2026 is a Tuesday.
        let day = 0;
        const nextWorkingDay = () => {
          do day++;
          while ([5, 6].includes(day % 7));
          return `2026-12-${String(day).padStart(2, '0')}`;
        };
        const write = {
          request: async () => {
            const res = await request(running.app('esm'))
              .post('/api/v1/requests')
              .set(writer)
              .send({ title: `Laptop ${requests.length}`, status: 'Open', priority: 'High' });
            expect(res.status).toBe(201);
            requests.push(res.body.id as number);
          },
          leave: async () => {
            const date = nextWorkingDay();
            const proposed = await request(running.app('hrm'))
              .post('/api/v1/leave')
              .set(writer)
              .send({
                employee_id: people.ada,
                leave_type: 'Casual Leave',
                from_date: date,
                to_date: date,
                half_day: false,
                half_day_date: null,
                description: `Ada's day off ${date}`,
              });
            expect(proposed.status).toBe(202);
            const approved = await request(running.app('hrm'))
              .post(`/api/v1/proposals/${proposed.body.id}/approve`)
              .set(approver);
            expect(approved.status).toBe(200);
          },
          none: async () => undefined,
        };
        const subjects = {
          grace: `hrm.employee-${people.grace}`,
          alan: `hrm.employee-${people.alan}`,
          contact: `crm.contact-${contactId}`,
        };
        const erased = new Set<string>();

        for (const step of script) {
          switch (step.kind) {
            case 'request':
              await write.request();
              break;
            case 'move-request': {
              const id = requests.at(-1);
              if (id === undefined) break;
              const res = await request(running.app('esm'))
                .patch(`/api/v1/requests/${id}`)
                .set(writer)
                .send({ status: step.status });
              expect([200, 409]).toContain(res.status);
              break;
            }
            case 'move-deal': {
              const res = await request(running.app('crm'))
                .patch(`/api/v1/opportunities/${dealId}`)
                .set(writer)
                .send({ stage: step.stage });
              expect([200, 409]).toContain(res.status);
              break;
            }
            case 'leave':
              await write.leave();
              break;
            case 'erase': {
              if (erased.has(step.who)) break;
              erased.add(step.who);
              const res = await request(running.audit)
                .post('/api/v1/erasures')
                .set(admin)
                .send({ subject: subjects[step.who], reason: 'Art. 17 request' });
              expect(res.status).toBe(201);
              break;
            }
            case 'restart':
              await running.restart(step.rebuild);
              break;
            case 'sync':
              await Promise.all([mirror.sync(step.module, running.app(step.module)), write[step.during]()]);
              break;
          }
        }
        await settle(running.suite);
        for (const module of MODULES) await mirror.sync(module.id, running.app(module.id));
        const copy = Object.fromEntries([...mirror.records].sort(([a], [b]) => a.localeCompare(b)));
        const reads = Object.fromEntries(
          [...(await served(running.apps))].sort(([a], [b]) => a.localeCompare(b)),
        );
        expect(copy).toEqual(reads);
        // Nothing new: one request per module.
        for (const module of MODULES) expect(await mirror.sync(module.id, running.app(module.id))).toBe(1);
      } finally {
        await running.stop();
      }
    }),
    { numRuns: 5 },
  );
});

it('erases every record an erasure touched, and no change read after it holds the erased values', async () => {
  const running = await Running.started();
  try {
    const seed = createSeedContext(running.suite.eventStore, running.suite.ids, 'fixtures');
    const { grace } = await writeFixtures(seed);
    await settle(running.suite);
    const hrm = running.app('hrm');
    const before = await request(hrm).get('/api/v1/changes?after=now').expect(200);

    await request(running.audit)
      .post('/api/v1/erasures')
      .set(admin)
      .send({ subject: `hrm.employee-${grace}`, reason: 'Art. 17 request' })
      .expect(201);

    const after = await request(hrm)
      .get(`/api/v1/changes?after=${encodeURIComponent(before.body.meta.next as string)}`)
      .expect(200);
    const changes = after.body.data as (Change & { position: number })[];
    expect(changes.map((change) => [change.resource, change.id, change.op])).toEqual([
      ['employees', grace, 'erase'],
      ['employees', grace, 'upsert'],
    ]);
    // Both at the erasure's position.
    expect(new Set(changes.map((change) => change.position)).size).toBe(1);
    const read = await request(hrm).get(`/api/v1/employees/${grace}`).expect(200);
    expect(changes[1]?.record).toEqual(read.body);

    const everything = await request(hrm).get('/api/v1/changes?limit=1000').expect(200);
    expect(JSON.stringify(everything.body)).not.toMatch(/Hopper/);
  } finally {
    await running.stop();
  }
});
