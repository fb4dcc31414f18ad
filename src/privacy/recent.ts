/** What a process remembered lately: a map that forgets in generations. */
export interface Recent<Key, Value> {
  has(key: Key): boolean;
  get(key: Key): Value | undefined;
  set(key: Key, value: Value): void;
  delete(key: Key): void;
}

/**
 * What a process remembered lately: two generations of a map, the older dropped whole once the newer
 * is full (`size`) or old (`ms`). A lookup finds what was remembered in the current generation or the
 * one before; nothing is kept beyond two. Dropping a generation costs nothing per entry, where
 * evicting entries one by one from the front of a Map costs more each time.
 */
export function recent<Key, Value>(
  limits: { size: number; ms?: number },
  now: () => number = Date.now,
): Recent<Key, Value> {
  let current = new Map<Key, Value>();
  let previous = new Map<Key, Value>();
  let since = now();

  const turn = () => {
    const at = now();
    if (current.size < limits.size && (limits.ms === undefined || at - since < limits.ms)) return;
    previous = current;
    current = new Map();
    since = at;
  };

  return {
    has: (key) => current.has(key) || previous.has(key),
    get(key) {
      const value = current.get(key);
      return value !== undefined || current.has(key) ? value : previous.get(key);
    },
    set(key, value) {
      turn();
      current.set(key, value);
    },
    delete(key) {
      current.delete(key);
      previous.delete(key);
    },
  };
}
