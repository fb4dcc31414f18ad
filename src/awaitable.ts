/**
 * A value, or a promise of it. The embedded stores answer synchronously (better-sqlite3 is), and a hot
 * path that awaits such an answer pays a turn of the microtask queue for nothing.
 */
export type Awaitable<T> = T | Promise<T>;

/** Applies `next` to the value now, or once the promise settles. */
export function whenReady<T, R>(value: Awaitable<T>, next: (ready: T) => Awaitable<R>): Awaitable<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
