import type { RequestListener } from 'node:http';
import request from 'supertest';
import { createAuditApp } from '../../src/api/audit';
import { presentContract } from '../../src/api/clm/contracts';
import { presentObligation } from '../../src/api/clm/obligations';
import type { ModuleDefinition } from '../../src/api/kit/module';
import { MODULES } from '../../src/api/modules';
import { isoDate } from '../../src/clock';
import { openModule, NOW, TOKEN, type ModuleHarness } from '../support/module-harness';

/**
 * Reads of one record as of a point in time (`as_of`, `as_of_position`, `valid_at`) agree with a fold
 * written here from the record's history (`GET /api/v1/history`): the steps within the cut, and the
 * record after the last of them.
 */

jest.setTimeout(300_000);

const AUDITOR = 'time-travel-auditor-0001';
const RECORDS_PER_RESOURCE = 2;

type Doc = Record<string, unknown>;

interface Step {
  event: { position: number; metadata: { occurred_at: string; recorded_at?: string } };
  record: Doc | null;
}

/** A route that serves one record of a collection, and how it answers the record. */
interface ItemRoute {
  resource: string;
  collection: string;
  path: (id: string) => string;
  /** The record as the route answers it on `day`, from the record its projection folds. */
  present: (record: Doc, day: string) => unknown;
  /** The names the route joins in from other records (`assignee_name`): names of now, at any cut. */
  names?: readonly string[];
}

/** An answer's record without the names its route joins in, to compare with the record folded. */
const folded = (route: ItemRoute, data: Doc) =>
  Object.fromEntries(Object.entries(data).filter(([field]) => !route.names?.includes(field)));

const asIs = (record: Doc) => record;

/** The kit's by-id reads and the modules' own routes of one record. */
function itemRoutes(module: ModuleDefinition): ItemRoute[] {
  const kit = module.resources.map((resource) => ({
    resource: resource.path,
    collection: resource.collection.name,
    path: (id: string) => `/api/v1/${resource.path}/${encodeURIComponent(id)}`,
    present: asIs,
    names: Object.keys(resource.names ?? {}),
  }));
  const own: Record<string, ItemRoute[]> = {
    clm: [
      {
        resource: 'contracts',
        collection: 'clm.contracts',
        path: (id) => `/api/v1/contracts/${id}`,
        present: (record, day) => presentContract(record as never, day),
      },
      {
        resource: 'obligations',
        collection: 'clm.obligations',
        path: (id) => `/api/v1/obligations/${id}`,
        present: (record, day) => presentObligation(record as never, day),
      },
    ],
    market: [
      {
        resource: 'competitors',
        collection: 'market.competitors',
        path: (id) => `/api/competitors/${id}`,
        present: asIs,
      },
    ],
  };
  return [...kit, ...(own[module.id] ?? [])];
}

/** The day a record read as of a time derives its figures for: that time's, never one after today. */
const dayOf = (text: string) => isoDate(new Date(Math.min(Date.parse(text), NOW.getTime())));

/** Cuts at a few steps of a long history (a competitor's price observations): its first, last and some between. */
const STEPS_PER_RECORD = 4;
function sampled(steps: readonly Step[]): Step[] {
  if (steps.length <= STEPS_PER_RECORD) return [...steps];
  const every = (steps.length - 1) / (STEPS_PER_RECORD - 1);
  return Array.from({ length: STEPS_PER_RECORD }, (_, index) => steps[Math.round(index * every)] as Step);
}

const time = (text: string | undefined) => (text === undefined ? -Infinity : Date.parse(text));

/** The fold of the history: the record after the last step within the cut (none: it did not exist). */
function foldedWithin(steps: readonly Step[], within: (step: Step) => boolean): Doc | null {
  return steps.filter(within).at(-1)?.record ?? null;
}

describe.each(MODULES.filter((module) => itemRoutes(module).length > 0).map((module) => [module.id, module]))(
  '%s: record reads as of a point in time',
  (_id, module) => {
    let harness: ModuleHarness<undefined>;
    let audit: RequestListener;
    beforeAll(async () => {
      harness = await openModule(module as ModuleDefinition, { demo: true });
      audit = createAuditApp(harness.suite, AUDITOR);
    });
    afterAll(() => harness.close());

    /** Credentials, and the workspace of a scoped record. */
    const headersFor = (record: Doc) => ({
      Authorization: `Bearer ${TOKEN}`,
      ...(module.id === 'clm' && { 'X-Svc-Organisation': String(record.workspace_id ?? record.id) }),
    });

    it.each(itemRoutes(module as ModuleDefinition).map((route) => [route.resource, route]))(
      '%s: as_of, as_of_position and valid_at agree with the history folded within the cut',
      async (_resource, route) => {
        const page = await harness.suite.readStore.find(route.collection, {
          limit: RECORDS_PER_RESOURCE,
          offset: 0,
        });
        const head = await harness.suite.eventStore.headPosition();
        for (const item of page.items) {
          const stored = JSON.parse(item) as Doc & { id: string | number };
          const id = String(stored.id);
          const read = (query: Record<string, string | number>) =>
            request(harness.app).get(route.path(id)).query(query).set(headersFor(stored));
          const history = await request(audit)
            .get(`/api/v1/history/${module.id}/${route.resource}/${encodeURIComponent(id)}`)
            .set('Authorization', `Bearer ${AUDITOR}`)
            .expect(200);
          const steps = history.body.data.events as Step[];
          const today = isoDate(NOW);

          // As of now: the read model itself.
          const now = await read({ as_of_position: head }).expect(200);
          expect({ ...now.body, data: folded(route, now.body.data) }).toEqual({
            data: route.present(stored, today),
            meta: { as_of_position: head, position: expect.any(Number) },
          });

          for (const step of sampled(steps)) {
            const { position, metadata } = step.event;
            const cuts: [Record<string, string | number>, (candidate: Step) => boolean, string][] = [
              [{ as_of_position: position }, (candidate) => candidate.event.position <= position, today],
              [
                { as_of: metadata.recorded_at ?? '1970-01-01T00:00:00Z' },
                (candidate) =>
                  time(candidate.event.metadata.recorded_at) <= time(metadata.recorded_at ?? '1970-01-01'),
                dayOf(metadata.recorded_at ?? '1970-01-01'),
              ],
              [
                { valid_at: metadata.occurred_at },
                (candidate) => time(candidate.event.metadata.occurred_at) <= time(metadata.occurred_at),
                dayOf(metadata.occurred_at),
              ],
            ];
            for (const [query, within, day] of cuts) {
              const expected = foldedWithin(steps, within);
              const answer = await read(query);
              if (expected === null) {
                expect([query, answer.status]).toEqual([query, 404]);
                continue;
              }
              expect([query, answer.status]).toEqual([query, 200]);
              expect(folded(route, answer.body.data)).toEqual(route.present(expected, day));
              expect(answer.body.meta).toEqual({ ...query, position: expect.any(Number) });
              expect(answer.body.meta.position).toBeLessThanOrEqual(head);
            }
          }
          // Before its first event, the record did not exist.
          const first = (steps[0] as Step).event.position;
          await read({ as_of_position: first - 1 }).expect(404);
        }
      },
    );
  },
);
