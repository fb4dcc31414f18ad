import type { EventStore } from '../events/event-store';

/**
 * Hands out the next integer id of a stream category (`esm.request` -> 1, 2, 3...). The counter lives
 * in memory and starts from the highest stream number in the store; a writer in another process that
 * took the same id makes the `no_stream` append fail, and `refresh` resynchronises.
 */
export interface IdAllocator {
  next(category: string): Promise<number>;
  /** Takes back an id whose creation was refused, if no later one was handed out meanwhile. */
  release(category: string, id: number): void;
  refresh(category: string): Promise<void>;
}

export function createIdAllocator(eventStore: EventStore): IdAllocator {
  const last = new Map<string, number>();
  const loading = new Map<string, Promise<number>>();

  async function current(category: string): Promise<number> {
    const known = last.get(category);
    if (known !== undefined) return known;
    let pending = loading.get(category);
    if (!pending) {
      pending = eventStore.lastStreamNumber(category);
      loading.set(category, pending);
    }
    const stored = await pending;
    loading.delete(category);
    const value = Math.max(stored, last.get(category) ?? 0);
    last.set(category, value);
    return value;
  }

  return {
    async next(category) {
      await current(category);
      const id = (last.get(category) as number) + 1;
      last.set(category, id);
      return id;
    },
    release(category, id) {
      if (last.get(category) === id) last.set(category, id - 1);
    },
    async refresh(category) {
      last.delete(category);
      await current(category);
    },
  };
}
