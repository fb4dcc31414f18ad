import { z } from 'zod';
import type { CollectionDefinition, Filter, ReadStore } from '../../projections/read-store';
import { ApiError } from '../kit/errors';
import { PageMeta, routeOrder } from '../kit/list-order';
import { withRecordTimes } from '../kit/record-times';
import type { Caller } from '../kit/module';
import { pageParameters as kitPageParameters } from '../kit/parameters';
import { shortened } from '../kit/validation';

/** Paging of the module's lists: 20 records by default, at most 200. */
export const LIST = { defaultLimit: 20, maxLimit: 200 } as const;

export const pageParameters = kitPageParameters(LIST);

export interface PageQuery {
  limit?: number;
  offset?: number;
  q?: string;
  sort?: string;
  after?: string;
}

/** The suite's list envelope, for a page of a module collection confined to the caller's workspace. */
export async function workspacePage<Doc, Record>(
  readStore: ReadStore,
  collection: CollectionDefinition,
  caller: Caller,
  query: PageQuery,
  filters: readonly Filter[],
  present: (doc: Doc) => Record,
) {
  const limit = query.limit ?? LIST.defaultLimit;
  const offset = query.offset ?? 0;
  const page = await readStore.find(collection.name, {
    filters: [{ field: 'workspace_id', op: 'eq', value: workspaceOf(caller) }, ...filters],
    q: query.q?.trim() || undefined,
    limit,
    offset,
    ...routeOrder(collection, query),
  });
  const data = page.items.map((item) => present(JSON.parse(item) as Doc));
  return { status: 200, body: { data, meta: { total: page.total, limit, offset, next: page.next } } };
}

/** One record of the caller's workspace; another workspace's record is as absent as a missing one. */
export async function workspaceRecord<Doc extends { workspace_id: string }>(
  readStore: ReadStore,
  collection: string,
  caller: Caller,
  id: string,
  name: string,
): Promise<Doc> {
  const text = await readStore.get(collection, id);
  const doc = text === null ? null : (JSON.parse(text) as Doc);
  if (doc?.workspace_id !== workspaceOf(caller))
    throw new ApiError('not_found', `${name} ${shortened(id)} not found`);
  return doc;
}

function workspaceOf(caller: Caller): string {
  if (caller.scope === undefined) throw new Error('The contract module serves workspace-scoped callers only');
  return caller.scope;
}

export const listOf = (record: z.ZodType, id: string) =>
  z
    .object({
      data: z.array(withRecordTimes(record)),
      meta: PageMeta,
    })
    .meta({ id });
