import type Database from 'better-sqlite3';

/**
 * A second search index beside the trigram one: the words of each search text (FTS5's `ascii`
 * tokenizer: runs of ASCII letters and digits and of non-ASCII characters) and the vocabulary of those
 * words (see `vocabularyOf`), itself indexed by trigram. A search with no space or ASCII punctuation
 * cannot match across a word's end, so its matches are the documents holding a word that contains it:
 * the vocabulary's trigram index names those words, and the word index counts and reads their
 * documents. The trigram index folds the same characters in the vocabulary as in the texts, so both
 * ways find the same documents. At 1M records the 388 title words of the benchmark took 2.2 to 2.5 s to
 * count by trigram (the largest 36 to 57 ms) and 0.4 s to count and read a first page of by word (the
 * largest 7 ms).
 */
export function wordIndexTables(table: string) {
  return { words: `${table}_words`, terms: `${table}_terms`, termsFts: `${table}_terms_fts` };
}

/** Words a search may name before it is cheaper to look for it in the trigram index. */
const MOST_WORDS = 64;

/** A word as FTS5's `ascii` tokenizer makes them: ASCII letters and digits and non-ASCII characters. */
const WORD = /[0-9A-Za-z\u0080-\uffff]+/g;
const NOT_A_DIGIT = /\D/;

/**
 * The words of a (lower-cased) search text that the vocabulary keeps: not those of digits alone (a
 * reference's number, an amount), a new word for nearly every document, which would make the vocabulary
 * as large as the collection. A search of digits alone is answered by trigram; any other search can
 * only be contained in words with something other than digits.
 */
export function vocabularyOf(text: string): string[] {
  return (text.match(WORD) ?? []).filter((word) => NOT_A_DIGIT.test(word));
}

export function createWordIndex(db: Database.Database, table: string): void {
  const { words, terms, termsFts } = wordIndexTables(table);
  db.exec(`CREATE VIRTUAL TABLE ${words} USING fts5(
    text, content = '', tokenize = 'ascii', detail = 'none')`);
  db.exec(`CREATE TABLE ${terms} (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE)`);
  db.exec(`CREATE VIRTUAL TABLE ${termsFts} USING fts5(
    term, content = '${terms}', content_rowid = 'id', tokenize = 'trigram')`);
}

/**
 * Whether the table's word index is of the form `createWordIndex` makes. An earlier one deleted by
 * tombstone (`contentless_delete`), keeping a deleted text's words until a merge.
 */
export function wordIndexIsCurrent(db: Database.Database, table: string): boolean {
  const { words } = wordIndexTables(table);
  const sql = db.prepare<[string], string>('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(words);
  return sql !== undefined && !sql.includes('contentless_delete');
}

/** Drops the table's word index and vocabulary, if any, to be made again. */
export function dropWordIndex(db: Database.Database, table: string): void {
  const { words, terms, termsFts } = wordIndexTables(table);
  for (const name of [words, termsFts, terms]) db.exec(`DROP TABLE IF EXISTS ${name}`);
}

/** The vocabulary words of the texts, each once (see `vocabularyOf`). */
export function vocabularyOfAll(texts: Iterable<string>): string[] {
  const words = new Set<string>();
  for (const text of texts) for (const word of vocabularyOf(text)) words.add(word);
  return [...words];
}

/** Keeps the word index in step with the trigram index's texts, within the writer's transaction. */
export function wordIndexWriter(db: Database.Database, table: string) {
  const { words, terms, termsFts } = wordIndexTables(table);
  const insertWords = db.prepare<[number, string]>(`INSERT INTO ${words} (rowid, text) VALUES (?, ?)`);
  // Contentless: a text is taken out by naming its words, which the index then deletes securely.
  const removeWords = db.prepare<[number, string]>(
    `INSERT INTO ${words} (${words}, rowid, text) VALUES ('delete', ?, ?)`,
  );
  const insertTerm = db.prepare<[string]>(`INSERT INTO ${terms} (term) VALUES (?) ON CONFLICT DO NOTHING`);
  const indexTerm = db.prepare<[number, string]>(`INSERT INTO ${termsFts} (rowid, term) VALUES (?, ?)`);
  const held = db.prepare<[string], number>(`SELECT 1 FROM ${words} WHERE ${words} MATCH ? LIMIT 1`).pluck();
  const dropTerm = db.prepare<[string], number>(`DELETE FROM ${terms} WHERE term = ? RETURNING id`).pluck();
  const unindexTerm = db.prepare<[number, string]>(
    `INSERT INTO ${termsFts} (${termsFts}, rowid, term) VALUES ('delete', ?, ?)`,
  );
  const removedWords = new Set<string>();
  return {
    /** Indexes a text by word; its words go to the vocabulary with `addToVocabulary`. */
    insert(rowid: number, text: string): void {
      insertWords.run(rowid, text);
    },
    /** Takes a text out; its words no text holds any more leave the vocabulary (`forgetUnusedWords`). */
    remove(rowid: number, text: string): void {
      removeWords.run(rowid, text);
      for (const word of vocabularyOf(text)) removedWords.add(word);
    },
    /**
     * Drops from the vocabulary, and from its trigram index, the words of the texts removed that no
     * text holds any more: once a text is replaced or deleted, no word of it stays anywhere.
     */
    forgetUnusedWords(): void {
      for (const word of removedWords) {
        if (held.get(phrase(word)) !== undefined) continue;
        const id = dropTerm.get(word);
        if (id !== undefined) unindexTerm.run(id, word);
      }
      removedWords.clear();
    },
    /** Adds the words the vocabulary does not hold yet. */
    addToVocabulary(words: Iterable<string>): void {
      for (const word of words) {
        const added = insertTerm.run(word);
        if (added.changes) indexTerm.run(Number(added.lastInsertRowid), word);
      }
    },
  };
}

/** Indexes by word the texts the table's trigram index (`fts`) holds already. */
export function fillWordIndex(db: Database.Database, table: string, fts: string): void {
  const writer = wordIndexWriter(db, table);
  // In slices: a connection that is iterating over a query cannot write.
  const slice = db
    .prepare<[number], [number, string]>(
      `SELECT rowid, text FROM ${fts} WHERE rowid > ? ORDER BY rowid LIMIT 10000`,
    )
    .raw();
  for (let rows = slice.all(-Infinity); rows.length; rows = slice.all(rows[rows.length - 1]![0])) {
    for (const [rowid, text] of rows) writer.insert(rowid, text);
    writer.addToVocabulary(vocabularyOfAll(rows.map(([, text]) => text)));
  }
}

/**
 * Answers, for a lower-cased search of three characters or more, the words of the vocabulary that contain
 * it, or undefined when the trigram index answers it: the search is of digits alone, or names no word
 * (one across words, with a space or ASCII punctuation, names none) or too many.
 */
export function wordFinder(db: Database.Database, table: string): (q: string) => string[] | undefined {
  const { termsFts } = wordIndexTables(table);
  const wordsContaining = db
    .prepare<[string, number], string>(`SELECT term FROM ${termsFts} WHERE ${termsFts} MATCH ? LIMIT ?`)
    .pluck();
  return (q) => {
    if (!NOT_A_DIGIT.test(q)) return undefined;
    const found = wordsContaining.all(phrase(q), MOST_WORDS + 1);
    return found.length === 0 || found.length > MOST_WORDS ? undefined : found;
  };
}

/** The word index's MATCH expression of the documents holding any of the words. */
export function anyOf(words: readonly string[]): string {
  return words.map(phrase).join(' OR ');
}

/**
 * The SQL of the count of the documents holding one word (its one parameter), as the word index keeps
 * it (`fts5vocab`, a table of this connection's). At 1M records, the 324 of the benchmark's 388 title
 * words that are in one word of the vocabulary each were counted this way 2.6x faster than by MATCH
 * (`laptop`, in 83,407 documents: 1.3 ms against 3.3).
 */
export function oneWordCount(db: Database.Database, table: string): string {
  return `SELECT coalesce((SELECT doc FROM ${wordCounts(db, table)} WHERE term = ?), 0)`;
}

/** The words the word index holds, each with its count of documents (`fts5vocab`, this connection's). */
function wordCounts(db: Database.Database, table: string): string {
  const { words } = wordIndexTables(table);
  const counts = `${words}_counts`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${counts} USING fts5vocab(main, ${words}, row)`);
  return `temp.${counts}`;
}

/** The search indexes of a collection's table: its trigrams, its words and its vocabulary's trigrams. */
export const searchIndexesOf = (table: string): string[] => {
  const { words, termsFts } = wordIndexTables(table);
  return [`${table}_fts`, words, termsFts];
};

/**
 * Makes an FTS5 index take a deleted text's words out at once (its `secure-delete` option), where it
 * would keep them until a merge of its segments: an erased value leaves no word behind, and an erasure
 * need not merge whole indexes (3.4 s at 1M events). An index made before is merged once (the words
 * of every text deleted until then are gone). A text replaced costs some 2.4x as much (13 against
 * 5.4 ms at 1M requests); documents first written, the rebuild's, cost the same.
 */
export function deleteSecurely(db: Database.Database, fts: string): void {
  const option = db.prepare(`SELECT v FROM ${fts}_config WHERE k = 'secure-delete'`).pluck();
  if (option.get() === 1) return;
  db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('secure-delete', 1)`);
  db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`);
}

/** An FTS5 string: the text between double quotes, each of its own doubled. */
export function phrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
