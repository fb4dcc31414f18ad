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

/** The names a record is served with, by field. */
export type NameReferences = Readonly<Record<string, NameReference>>;

const isId = (id: unknown): id is DocumentId => typeof id === 'number' || typeof id === 'string';

/**
 * The names each record points to, by field: null where it points to none, or to a record that is not
 * there. Only the naming field of each record pointed to is read.
 */
export async function namesOf(
  readStore: Pick<ReadStore, 'loadTexts'>,
  names: NameReferences,
  records: readonly Document[],
): Promise<Record<string, string | null>[]> {
  const named = records.map((): Record<string, string | null> => ({}));
  for (const [field, reference] of Object.entries(names)) {
    const ids = [...new Set(records.map((record) => record[reference.idField]))].filter(isId);
    const found =
      ids.length > 0
        ? await readStore.loadTexts(reference.collection.name, ids, reference.nameField)
        : new Map<DocumentId, string | null>();
    records.forEach((record, index) => {
      (named[index] as Record<string, string | null>)[field] =
        found.get(record[reference.idField] as DocumentId) ?? null;
    });
  }
  return named;
}

/** The records with their names (see `namesOf`). */
export async function withNames(
  readStore: Pick<ReadStore, 'loadTexts'>,
  names: NameReferences | undefined,
  records: readonly Document[],
): Promise<Document[]> {
  if (!names) return [...records];
  const named = await namesOf(readStore, names, records);
  return records.map((record, index) => ({ ...record, ...named[index] }));
}
