import type Database from 'better-sqlite3';
import type { IndexedChange } from './query-cache';
import {
  checkMoves,
  searchText,
  type CheckpointMove,
  type CollectionDefinition,
  type DocumentChange,
  type DocumentId,
} from './read-store';
import { vocabularyOfAll, wordIndexWriter } from './word-index';

/** A document change as SQLite stores it: its JSON text and search text, or `json: null` to delete. */
export interface SerializedChange {
  table: string;
  id: DocumentId;
  json: string | null;
  /** The text the FTS index holds for it; null when it has none. */
  text: string | null;
}

/** The vocabulary words of a commit's search texts, per table (`commitVocabulary`). */
export type CommitVocabulary = ReadonlyMap<string, readonly string[]>;

/** Writes the changes; returns each one's document as the search index held it before and after. */
export type WriteChanges = (
  changes: readonly SerializedChange[],
  checkpoints: ReadonlyMap<string, CheckpointMove>,
  vocabulary: CommitVocabulary,
) => IndexedChange[];

export function serializeChange(
  table: string,
  definition: CollectionDefinition,
  change: DocumentChange,
): SerializedChange {
  if (change.doc === null) return { table, id: change.id, json: null, text: null };
  return {
    table,
    id: change.id,
    json: JSON.stringify(change.doc),
    text: searchText(definition, change.doc) || null,
  };
}

/**
 * The vocabulary words of the changes' search texts, per table. Found by the read store before it hands
 * a commit over, not by the writer: in a rebuild the writer thread is the busier of the two (at 1M
 * events the projection runtime waited for it 5 s in all), and finding the words there made the rebuild
 * 0.8 s longer (11.2 s against 10.4, medians of 3).
 */
export function commitVocabulary(changes: readonly SerializedChange[]): Map<string, string[]> {
  const texts = new Map<string, string[]>();
  for (const { table, text } of changes) {
    if (text === null) continue;
    let tableTexts = texts.get(table);
    if (!tableTexts) texts.set(table, (tableTexts = []));
    tableTexts.push(text);
  }
  return new Map([...texts].map(([table, tableTexts]) => [table, vocabularyOfAll(tableTexts)]));
}

function tableStatements(db: Database.Database, table: string) {
  const fts = `${table}_fts`;
  const removeTrigrams = db.prepare<[number]>(`DELETE FROM ${fts} WHERE rowid = ?`);
  const insertTrigrams = db.prepare<[number, string]>(`INSERT INTO ${fts} (rowid, text) VALUES (?, ?)`);
  const words = wordIndexWriter(db, table);
  return {
    /**
     * Inserts a document that is not stored yet; changes nothing if it is. Separate statements, not an
     * upsert with RETURNING: that form is about 3x slower next to FTS5.
     */
    insertNew: db.prepare<[DocumentId, string]>(
      `INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT DO NOTHING`,
    ),
    update: db.prepare<[string, number]>(`UPDATE ${table} SET doc = ? WHERE rowid = ?`),
    /** The row of a stored document, the document and its indexed search text (null when it has none). */
    stored: db.prepare<[DocumentId], { rowid: number; doc: string; text: string | null }>(
      `SELECT ${table}.rowid AS rowid, ${table}.doc AS doc, ${fts}.text AS text
       FROM ${table} LEFT JOIN ${fts} ON ${fts}.rowid = ${table}.rowid WHERE ${table}.id = ?`,
    ),
    remove: db.prepare<[DocumentId]>(`DELETE FROM ${table} WHERE id = ?`),
    /** Indexes a search text by trigram and by word. */
    insertText(rowid: number, text: string) {
      insertTrigrams.run(rowid, text);
      words.insert(rowid, text);
    },
    removeText(rowid: number, text: string) {
      removeTrigrams.run(rowid);
      words.remove(rowid, text);
    },
    addToVocabulary: words.addToVocabulary,
    forgetUnusedWords: words.forgetUnusedWords,
  };
}

/**
 * Writes document changes and moves the projectors' checkpoints in one transaction, on the connection
 * it is given: the read store's own, or its writer thread's (`sqlite-writer-thread.ts`). The moves are
 * checked first, within the transaction's write lock, so that of two processes committing the same
 * batch the second writes nothing (`CheckpointConflict`).
 */
export function documentWriter(db: Database.Database): WriteChanges {
  const statements = new Map<string, ReturnType<typeof tableStatements>>();
  const storedCheckpoint = db
    .prepare<[string], number>('SELECT position FROM checkpoints WHERE projector = ?')
    .pluck();
  const saveCheckpoint = db.prepare(
    `INSERT INTO checkpoints (projector, position) VALUES (?, ?)
     ON CONFLICT (projector) DO UPDATE SET position = excluded.position`,
  );

  const statementsOf = (table: string) => {
    let found = statements.get(table);
    if (!found) statements.set(table, (found = tableStatements(db, table)));
    return found;
  };

  const write = db.transaction<WriteChanges>((changes, checkpoints, vocabulary) => {
    checkMoves((name) => storedCheckpoint.get(name), checkpoints);
    const written = changes.map((change): IndexedChange => {
      const table = statementsOf(change.table);
      const after = { doc: change.json, text: change.text };
      // Inserted first, looked up only if it was stored already: a rebuild or a catch-up mostly creates
      // documents (looking up the 196k of a 1M-event rebuild one by one takes 0.7 s).
      if (change.json !== null) {
        const inserted = table.insertNew.run(change.id, change.json);
        if (inserted.changes) {
          if (change.text) table.insertText(Number(inserted.lastInsertRowid), change.text);
          return { id: change.id, before: { doc: null, text: null }, after };
        }
      }
      const existing = table.stored.get(change.id);
      const before = { doc: existing?.doc ?? null, text: existing?.text ?? null };
      if (change.json === null) {
        if (existing?.text != null) table.removeText(existing.rowid, existing.text);
        table.remove.run(change.id);
      } else if (existing) {
        table.update.run(change.json, existing.rowid);
        // Most updates change a status, not the searched fields: re-indexing costs more than the update.
        if (change.text !== existing.text) {
          if (existing.text !== null) table.removeText(existing.rowid, existing.text);
          if (change.text) table.insertText(existing.rowid, change.text);
        }
      }
      return { id: change.id, before, after };
    });
    for (const [table, words] of vocabulary) statementsOf(table).addToVocabulary(words);
    for (const table of statements.values()) table.forgetUnusedWords();
    for (const [projector, { to }] of checkpoints) saveCheckpoint.run(projector, to);
    return written;
  });
  // The write lock is taken up front, so that a commit waits out another process's (the worker role saves
  // its job-trigger checkpoint in this file). Deferred, a commit now and then failed at once with
  // "database is locked" (SQLITE_BUSY, or SQLITE_BUSY_SNAPSHOT when it read before writing) instead.
  return write.immediate;
}
