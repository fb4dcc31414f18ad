import type { CollectionDefinition, Document, DocumentId, ReadStore } from '../../projections/read-store';

/**
 * A field a record is served with but does not store: the name of the record one of its fields
 * points to (a request's `assignee_name`, its agent's `name`), read when the record is. A name erased
 * since reads as the other record shows it: erased.
 */
export interface NameReference {
  /** The field holding the other record's id. */
  idField: string;
  /**
   * The other record's collection (which the suite then defines, whichever module's it is), and its
   * field that names it.
   */
  collection: CollectionDefinition;
  nameField: string;
}

/** The records with their names; a record pointing to none, or to one that is not there, has null. */
export async function withNames(
  readStore: Pick<ReadStore, 'load'>,
  names: Readonly<Record<string, NameReference>> | undefined,
  records: readonly Document[],
): Promise<Document[]> {
  if (!names) return [...records];
  const named = records.map((record) => ({ ...record }));
  for (const [field, reference] of Object.entries(names)) {
    const ids = [...new Set(named.map((record) => record[reference.idField]))].filter(
      (id): id is DocumentId => typeof id === 'number' || typeof id === 'string',
    );
    const found = ids.length > 0 ? await readStore.load(reference.collection.name, ids) : new Map();
    for (const record of named) {
      const other = found.get(record[reference.idField] as DocumentId);
      record[field] = (other?.[reference.nameField] as string | null | undefined) ?? null;
    }
  }
  return named;
}
