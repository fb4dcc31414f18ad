import type { EventStore } from './event-store';

/**
 * An event store whose `onAppended` also reports appends made by other processes, found by polling
 * the head position: the roles of the distributed profile over the embedded (SQLite) log, where
 * another process writes and no notification crosses the process boundary.
 */
export function withHeadPolling(store: EventStore, pollMs: number): EventStore {
  const listeners = new Set<(head: number) => void>();
  let known = 0;
  let timer: NodeJS.Timeout | null = null;

  const notify = (head: number) => {
    if (head <= known) return;
    known = head;
    for (const listener of listeners) listener(head);
  };
  const poll = () => void store.headPosition().then(notify, () => undefined);

  return {
    ...store,
    onAppended(listener, after) {
      listeners.add(listener);
      const unsubscribe = store.onAppended(notify, after);
      timer ??= setInterval(poll, pollMs);
      return () => {
        listeners.delete(listener);
        unsubscribe();
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    async close() {
      if (timer) clearInterval(timer);
      listeners.clear();
      await store.close();
    },
  };
}
