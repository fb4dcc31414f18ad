import type { Server } from 'node:http';
import request from 'supertest';
import type { ReadStore } from '../../src/projections/read-store';

/** A module as these reads go through it: its id and its resources' paths. */
export interface ReadModule {
  id: string;
  resources: readonly { path: string }[];
}

/** What a running suite answers, by read: `<server> GET <path>` -> status and body; collection -> its documents. */
export interface RecordedReads {
  http: Record<string, { status: number; body: unknown }>;
  documents: Record<string, string[]>;
}

/** What is read from a running suite: its modules' servers and the audit API's, and its read store. */
export interface ReadTarget {
  servers: Record<string, Server>;
  readStore: ReadStore;
}

const PAGE = 200;

/**
 * Every read of the suite: each module's lists (its resources' and its proposals') and each record
 * they list by id, the audit API's log and erasures, and every document of `collections`.
 */
export async function recordReads(
  target: ReadTarget,
  modules: readonly ReadModule[],
  collections: readonly string[],
  headers: { reader(module: string): Record<string, string>; auditor: Record<string, string> },
): Promise<RecordedReads> {
  const reads: RecordedReads = { http: {}, documents: {} };
  const read = async (server: string, path: string, set: Record<string, string>) => {
    const app = target.servers[server];
    if (!app) throw new Error(`No server for ${server}`);
    const answer = await request(app).get(path).set(set);
    reads.http[`${server} GET ${path}`] = { status: answer.status, body: answer.body };
    return answer.body as { data?: { id: number | string }[] };
  };
  for (const module of modules) {
    const reader = headers.reader(module.id);
    for (const path of [...module.resources.map((resource) => resource.path), 'proposals']) {
      const list = await read(module.id, `/api/v1/${path}?limit=${PAGE}`, reader);
      for (const { id } of list.data ?? []) await read(module.id, `/api/v1/${path}/${id}`, reader);
    }
  }
  await read('audit', `/api/v1/events?limit=1000`, headers.auditor);
  await read('audit', '/api/v1/erasures', headers.auditor);
  for (const collection of collections) {
    const { items } = await target.readStore.find(collection, { filters: [], limit: 10_000, offset: 0 });
    reads.documents[collection] = items;
  }
  return reads;
}
