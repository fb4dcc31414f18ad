import { createHash } from 'node:crypto';
import type { Projector } from './projection';
import type { CollectionDefinition, ReadStore } from './read-store';

/**
 * The definition each projector's read models were built by, kept with them (one document a
 * projector: its fingerprint), so that a start can tell when a new build defines them otherwise.
 */
export const READ_MODEL_DEFINITIONS: CollectionDefinition = {
  name: 'projections.definitions',
  idKind: 'string',
  searchFields: [],
  filterFields: [],
};

const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort();

/**
 * Each projector's fingerprint: a hash of its version, the events each of its projections handles,
 * and its collections' definitions (their id kind, search fields and filter fields, each an index).
 * Logic these do not show (what a projection makes of an event) is told by bumping the projector's
 * `version`.
 */
export function definitionFingerprints(
  projectors: readonly Projector[],
  collections: readonly CollectionDefinition[],
): Map<string, string> {
  return new Map(
    projectors.map((projector) => {
      const names = new Set(projector.projections.map((projection) => projection.collection));
      const definition = {
        version: projector.version ?? 1,
        projections: projector.projections
          .map((projection) => ({ collection: projection.collection, handles: sorted(projection.handles) }))
          .sort((one, other) => one.collection.localeCompare(other.collection)),
        collections: collections
          .filter((collection) => names.has(collection.name))
          .map((collection) => ({
            name: collection.name,
            idKind: collection.idKind,
            searchFields: sorted(collection.searchFields),
            jsonSearchFields: sorted(collection.jsonSearchFields),
            filterFields: sorted(collection.filterFields),
            sortFields: collection.sortFields,
          }))
          .sort((one, other) => one.name.localeCompare(other.name)),
      };
      return [projector.name, createHash('sha256').update(JSON.stringify(definition)).digest('hex')];
    }),
  );
}

/**
 * The projectors whose read models were built by a definition other than the one they have now (or by
 * a build that did not record it): those that have projected something (their checkpoint is past 0)
 * and whose recorded fingerprint is not theirs.
 */
export async function changedDefinitions(
  readStore: ReadStore,
  fingerprints: ReadonlyMap<string, string>,
): Promise<string[]> {
  await readStore.defineCollections([READ_MODEL_DEFINITIONS]);
  const checkpoints = await readStore.checkpoints();
  const recorded = await readStore.load(READ_MODEL_DEFINITIONS.name, [...fingerprints.keys()]);
  return [...fingerprints]
    .filter(
      ([name, fingerprint]) =>
        (checkpoints.get(name) ?? 0) > 0 && recorded.get(name)?.fingerprint !== fingerprint,
    )
    .map(([name]) => name);
}

/** Records the fingerprints as those the read models are built by. */
export async function recordDefinitions(
  readStore: ReadStore,
  fingerprints: ReadonlyMap<string, string>,
): Promise<void> {
  await readStore.defineCollections([READ_MODEL_DEFINITIONS]);
  const changes = [...fingerprints].map(([name, fingerprint]) => ({
    collection: READ_MODEL_DEFINITIONS.name,
    id: name,
    doc: { fingerprint },
  }));
  await readStore.commit(changes, new Map());
}
