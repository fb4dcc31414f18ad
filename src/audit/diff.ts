import { scanAll } from '../projections/read-all';
import type { CollectionDefinition, ReadStore } from '../projections/read-store';

export interface ReadModelDifference {
  collection: string;
  id: string | number;
  /** `missing`: only in the rebuild; `extra`: only in the live store; `different`: both, unequal. */
  kind: 'missing' | 'extra' | 'different';
  fields?: string[];
}

const PAGE = 1000;

function differingFields(live: Record<string, unknown>, rebuilt: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(live), ...Object.keys(rebuilt)]);
  return [...keys].filter((key) => JSON.stringify(live[key]) !== JSON.stringify(rebuilt[key]));
}

async function* documents(store: ReadStore, collection: string) {
  for await (const { doc } of scanAll(store, collection, {}, { pageSize: PAGE })) {
    yield JSON.parse(doc) as Record<string, unknown> & { id: string | number };
  }
}

const compareIds = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** Compares two read stores collection by collection, walking both in id order. */
export async function diffReadModels(
  live: ReadStore,
  rebuilt: ReadStore,
  collections: readonly CollectionDefinition[],
): Promise<ReadModelDifference[]> {
  const differences: ReadModelDifference[] = [];
  for (const { name: collection } of collections) {
    const left = documents(live, collection);
    const right = documents(rebuilt, collection);
    let a = await left.next();
    let b = await right.next();
    while (!a.done || !b.done) {
      const order = a.done ? 1 : b.done ? -1 : compareIds(a.value.id, b.value.id);
      if (order < 0 && !a.done) {
        differences.push({ collection, id: a.value.id, kind: 'extra' });
        a = await left.next();
      } else if (order > 0 && !b.done) {
        differences.push({ collection, id: b.value.id, kind: 'missing' });
        b = await right.next();
      } else if (!a.done && !b.done) {
        const fields = differingFields(a.value, b.value);
        if (fields.length > 0) differences.push({ collection, id: a.value.id, kind: 'different', fields });
        a = await left.next();
        b = await right.next();
      }
    }
  }
  return differences;
}
