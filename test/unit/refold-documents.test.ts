import request from 'supertest';
import { upcast } from '../../src/events/catalog';
import { esmStreams } from '../../src/events/esm';
import type { EventStore, LogQuery } from '../../src/events/event-store';
import { suiteProjectors } from '../../src/main';
import { refoldDocumentsOf } from '../../src/projections/retry-parked';
import { auth, validRequest } from '../api/spec';
import { openEsm, type EsmHarness } from '../support/esm-harness';

/**
 * What an erasure costs is the subject's records, not the log (issue 57): the documents its events
 * went into are folded again from their own streams, or from the one event that wrote them.
 */
let h: EsmHarness;
beforeAll(async () => {
  h = await openEsm();
});
afterAll(() => h.close());

async function documents(id: number): Promise<unknown[]> {
  const { readStore } = h.suite;
  const comments = await readStore.find('esm.comments', {
    filters: [{ field: 'request_id', op: 'eq', value: id }],
    limit: 10,
    offset: 0,
  });
  return [await readStore.get('esm.requests', id), ...comments.items];
}

it("folds a request and its comments again from the request's stream, reading none of its module's log", async () => {
  const body = { ...validRequest, service_id: h.fixtures.laptopService };
  const id = (await request(h.app).post('/api/v1/requests').set(auth).send(body).expect(201)).body
    .id as number;
  for (const text of ['Which model?', 'Ordered today']) {
    await request(h.app)
      .post(`/api/v1/requests/${id}/comments`)
      .set(auth)
      .send({ body: text, visibility: 'public' })
      .expect(201);
  }
  const { suite } = h;
  await suite.runtime.waitFor(await suite.eventStore.headPosition());
  const before = await documents(id);
  expect(before).toHaveLength(3);

  const queries: LogQuery[] = [];
  const eventStore: EventStore = {
    ...suite.eventStore,
    queryLog: (query) => {
      queries.push(query);
      return suite.eventStore.queryLog(query);
    },
  };
  const positions = (await suite.eventStore.readStream(esmStreams.request(id))).map(
    (event) => event.position,
  );
  await suite.readStore.commit([{ collection: 'esm.requests', id, doc: null }], new Map());
  await refoldDocumentsOf(
    {
      eventStore,
      readStore: suite.readStore,
      projectors: suiteProjectors(suite.modules),
      checkpoints: await suite.readStore.checkpoints(),
      upcast: (event) => upcast(suite.catalog, event),
    },
    positions,
  );

  expect(queries).toEqual([]);
  expect(await documents(id)).toEqual(before);
});
