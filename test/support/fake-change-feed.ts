import type { Change, ChangeFeed } from '../../src/changes/change';

export type FakeChangeFeed = ChangeFeed & {
  /** Adds a change at the feed's end, with the next cursor (`c1`, `c2`...). */
  add(change: Omit<Change, 'cursor'>): Change;
};

/** An in-memory change feed of one module: changes in the order added, cursors it gave or refused. */
export function fakeChangeFeed(): FakeChangeFeed {
  const changes: Change[] = [];
  const startOf = (after: string | undefined): number => {
    if (after === undefined) return 0;
    if (after === 'now') return changes.length;
    const index = /^c(\d+)$/.exec(after)?.[1];
    if (index === undefined || Number(index) > changes.length) {
      throw Object.assign(new Error(`This feed gave no cursor ${after}`), { code: 'cursor_expired' });
    }
    return Number(index);
  };
  return {
    add(change) {
      const added = { ...change, cursor: `c${changes.length + 1}` };
      changes.push(added);
      return added;
    },
    async cursorAfter(position) {
      return `c${changes.filter((change) => change.position <= position).length}`;
    },
    async read(after, limit, _viewer, resource) {
      const data: Change[] = [];
      let next = startOf(after);
      for (; next < changes.length && data.length < limit; next++) {
        const change = changes[next] as Change;
        if (resource === undefined || change.resource === resource) data.push(change);
      }
      return { data, meta: { next: `c${next}`, has_more: next < changes.length } };
    },
  };
}
