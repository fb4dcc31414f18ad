import { ENTRY_BYTES, type CacheBudget, type Kept } from './cache-budget';
import type { DocumentId } from './read-store';

/** Documents already read by id, as their JSON, each forgotten when a commit changes it. */
export interface DocumentCache {
  get(id: DocumentId): string | undefined;
  /** Keeps a document, unless it is too large for the budget. */
  remember(id: DocumentId, doc: string): void;
  forget(id: DocumentId): void;
  clear(): void;
}

interface KeptDocument extends Kept {
  doc: string;
}

/** A collection's documents, counted in `budget` with the store's other caches. */
export function createDocumentCache(budget: CacheBudget): DocumentCache {
  const docs = new Map<DocumentId, KeptDocument>();
  const forget = (id: DocumentId) => {
    const kept = docs.get(id);
    if (!kept) return;
    docs.delete(id);
    budget.release(kept);
  };
  return {
    get: (id) => docs.get(id)?.doc,
    remember(id, doc) {
      const bytes = ENTRY_BYTES + doc.length;
      if (!budget.admits(bytes)) return;
      forget(id);
      const kept = { doc, bytes, drop: () => docs.delete(id) };
      docs.set(id, kept);
      budget.keep(kept);
    },
    forget,
    clear() {
      for (const kept of docs.values()) budget.release(kept);
      docs.clear();
    },
  };
}
