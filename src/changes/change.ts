import type { Projector } from '../projections/projection';
import type { Document, DocumentId } from '../projections/read-store';

/** What happened to a record: written (created or changed), deleted, or a subject of it erased. */
export type ChangeOp = 'upsert' | 'delete' | 'erase';

/** One change of one record, as `GET /api/v1/changes` and webhooks carry it. */
export interface Change {
  /** Opaque: where a reader that has seen this change goes on from. */
  cursor: string;
  /** The resource's path (`requests`). */
  resource: string;
  id: DocumentId;
  op: ChangeOp;
  /** The log position of the event that made the change. */
  position: number;
  occurred_at: string;
  /** The record as its read endpoint served it after the change; absent for `delete` and `erase`. */
  record?: Document;
}

export interface ChangePage {
  data: Change[];
  meta: { next: string; has_more: boolean };
}

/**
 * Who reads a feed: the scope a module confines their reads to (a contract workspace), if any; or, for
 * a webhook an administrator registered, every scope.
 */
export interface FeedViewer {
  scope?: string;
  everyScope?: true;
}

/** A webhook's reader: every record of its module, of every scope. */
export const EVERY_SCOPE: FeedViewer = { everyScope: true };

/** Whether the viewer may read a record of this scope (a record's `workspace_id`). */
export const seesScope = (viewer: FeedViewer, scope: unknown): boolean =>
  viewer.everyScope === true || scope === (viewer.scope ?? null);

/** A resource whose record changes a module's feed carries. */
export interface FeedResource {
  /** Its path under `/api/v1/`. */
  path: string;
  /** The read model collection its records are folded into. */
  collection: string;
  /** What one record is called (`Request`). */
  name: string;
  /**
   * The record as its read endpoint serves it to the viewer at `now` (what it derives from the day:
   * due, overdue); null when the viewer may not read it.
   */
  present(doc: Document, viewer: FeedViewer, now: Date): Document | null;
}

/** A module as its change feed knows it. */
export interface ModuleFeed {
  module: string;
  projector: Projector;
  resources: readonly FeedResource[];
}

/** The feed of one module: its changes after a cursor, in log order. */
export interface ChangeFeed {
  /**
   * At most `limit` changes after `after` (absent: from the log's start; `now`: from its head) that
   * the viewer may see, optionally of one resource. Throws `CursorExpired` for a cursor this feed did
   * not give.
   */
  read(after: string | undefined, limit: number, viewer: FeedViewer, resource?: string): Promise<ChangePage>;
  /** The cursor that stands after every change up to this log position (0, or an event's). */
  cursorAfter(position: number): Promise<string>;
}
