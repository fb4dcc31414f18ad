/**
 * What a process remembered lately: two generations of a map, the older dropped whole once the newer
 * is full (`size`) or old (`ms`). A lookup finds what was remembered in the current generation or the
 * one before; nothing is kept beyond two. Dropping a generation costs nothing per entry, where
 * evicting entries one by one from the front of a Map costs more each time.
 */
export class Recent<Key, Value> {
  private current = new Map<Key, Value>();
  private previous = new Map<Key, Value>();
  private since: number;

  constructor(
    private readonly limits: { size: number; ms?: number },
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
  }

  has(key: Key): boolean {
    return this.current.has(key) || this.previous.has(key);
  }

  get(key: Key): Value | undefined {
    return this.current.has(key) ? this.current.get(key) : this.previous.get(key);
  }

  set(key: Key, value: Value): void {
    this.turn();
    this.current.set(key, value);
  }

  delete(key: Key): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  private turn(): void {
    const { size, ms } = this.limits;
    const now = this.now();
    if (this.current.size < size && (ms === undefined || now - this.since < ms)) return;
    this.previous = this.current;
    this.current = new Map();
    this.since = now;
  }
}
